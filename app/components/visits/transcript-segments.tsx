import type { MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { elapsedDateTime, formatElapsed } from "#app/components/recorder/format.ts";

export interface Segment {
  start: number;
  end: number;
  text: string;
}

/**
 * Timestamped segments; each timestamp plays the recording from there. Without JavaScript the
 * link opens the audio at that time (a media fragment); with it, the page's player seeks.
 */
export function TranscriptSegments({
  segments,
  audioUrl,
  onSeek,
  testId,
}: {
  segments: readonly Segment[];
  audioUrl: string | null;
  onSeek: (seconds: number) => void;
  testId?: string;
}) {
  const { t } = useTranslation("app");
  return (
    <ol className="transcript-segments" data-testid={testId}>
      {segments.map((segment) => {
        const time = <time dateTime={elapsedDateTime(segment.start * 1000)}>{formatElapsed(segment.start * 1000)}</time>;
        const seek = (event: MouseEvent<HTMLAnchorElement>) => {
          event.preventDefault();
          onSeek(segment.start);
        };
        return (
          <li key={`${segment.start}-${segment.end}`} data-start={segment.start}>
            {audioUrl ? (
              <a
                href={`${audioUrl}#t=${segment.start}`}
                onClick={seek}
                data-testid="segment-seek"
                aria-label={t("visits.player.playFrom", { time: formatElapsed(segment.start * 1000) })}
              >
                {time}
              </a>
            ) : (
              time
            )}{" "}
            {segment.text}
          </li>
        );
      })}
    </ol>
  );
}
