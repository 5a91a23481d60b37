import type { MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { elapsedDateTime, formatElapsed } from "#app/components/recorder/format.ts";
import { markedWords } from "#app/services/speech/confidence.ts";
import type { SpeakerRole } from "#app/services/speech/diarise/speaker.ts";
import { SegmentSpeaker, type SpeakerEditTarget } from "./segment-speaker.tsx";

export interface Segment {
  start: number;
  end: number;
  text: string;
  /** Per-word engine confidence (issue 15): words below LOW_CONFIDENCE are marked for checking. */
  confidence?: number[];
  /** Issue 26: who said it; null when not known. */
  speaker?: SpeakerRole | null;
  speaker_edited?: true;
}

/** The segment's text, its low-confidence words marked (dotted underline, tinted) with a tooltip and screen-reader hint. */
function SegmentText({ segment, hint }: { segment: Segment; hint: string }) {
  if (!segment.confidence) return <>{segment.text}</>;
  const words = markedWords(segment.text, segment.confidence);
  return (
    <>
      {words.map((w, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: words of a fixed text, in order
        <span key={i}>
          {i > 0 ? " " : null}
          {w.low ? (
            <mark
              className="rounded-sm bg-warning-soft text-fg underline decoration-warning decoration-dotted underline-offset-2"
              title={hint}
              data-testid="low-confidence-word"
            >
              {w.word}
              <span className="sr-only"> ({hint})</span>
            </mark>
          ) : (
            w.word
          )}
        </span>
      ))}
    </>
  );
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
  speakerEdit,
}: {
  segments: readonly Segment[];
  audioUrl: string | null;
  onSeek: (seconds: number) => void;
  testId?: string;
  /** Issue 26: segments of the newest version let the user fix who said them. */
  speakerEdit?: SpeakerEditTarget;
}) {
  const { t } = useTranslation("app");
  const { t: tAsr } = useTranslation("asr");
  const hint = tAsr("lowConfidence.word");
  const anyLow = segments.some((s) => markedWords(s.text, s.confidence).some((w) => w.low));
  return (
    <>
      {anyLow ? (
        <p className="text-sm text-muted" data-testid="low-confidence-legend">
          {tAsr("lowConfidence.legend")}
        </p>
      ) : null}
      <ol className="transcript-segments" data-testid={testId}>
        {segments.map((segment, index) => {
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
              <SegmentSpeaker speaker={segment.speaker} edited={segment.speaker_edited} index={index} target={speakerEdit} />{" "}
              <SegmentText segment={segment} hint={hint} />
            </li>
          );
        })}
      </ol>
    </>
  );
}
