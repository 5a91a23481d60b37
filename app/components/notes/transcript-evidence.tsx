import { type MouseEvent, type ReactNode, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { elapsedDateTime, formatElapsed } from "#app/components/recorder/format.ts";
import type { Evidence, NoteLanguage, TranscriptPiece } from "#app/services/notes/model.ts";

/**
 * The transcript beside the note: each piece with its time (a link that plays the recording from
 * there), the pieces behind the hovered sentence highlighted and their quoted words marked.
 */
export function TranscriptEvidence({
  pieces,
  active,
  quotes,
  language,
  audioUrl,
  onSeek,
}: {
  pieces: readonly TranscriptPiece[];
  active: ReadonlySet<number>;
  quotes: readonly Evidence[];
  language: NoteLanguage;
  audioUrl: string | null;
  onSeek: (seconds: number) => void;
}) {
  const { t } = useTranslation("notes");
  const list = useRef<HTMLOListElement>(null);
  const first = Math.min(...active);
  useEffect(() => {
    if (!Number.isFinite(first)) return;
    list.current?.querySelector(`[data-index="${first}"]`)?.scrollIntoView?.({ block: "nearest", behavior: "smooth" });
  }, [first]);
  if (!pieces.length) return <p>{t("editor.noTranscript")}</p>;
  return (
    <ol className="note-transcript" ref={list} lang={language} data-testid="note-transcript">
      {pieces.map((piece, index) => {
        const time = <time dateTime={elapsedDateTime(piece.start * 1000)}>{formatElapsed(piece.start * 1000)}</time>;
        const seek = (event: MouseEvent<HTMLAnchorElement>) => {
          event.preventDefault();
          onSeek(piece.start);
        };
        const highlighted = active.has(index);
        return (
          <li
            key={`${piece.start}-${piece.end}`}
            data-index={index}
            data-start={piece.start}
            className={highlighted ? "evidence-active" : undefined}
            data-active={highlighted ? "true" : undefined}
          >
            {audioUrl ? (
              <a
                href={`${audioUrl}#t=${piece.start}`}
                onClick={seek}
                aria-label={t("editor.playFrom", { time: formatElapsed(piece.start * 1000) })}
              >
                {time}
              </a>
            ) : (
              time
            )}{" "}
            {piece.speaker ? <b>{piece.speaker}: </b> : null}
            {highlighted ? <Marked text={piece.text} quotes={quotes} /> : piece.text}
          </li>
        );
      })}
    </ol>
  );
}

/** The text with the first occurrence of each quote wrapped in <mark>. */
function Marked({ text, quotes }: { text: string; quotes: readonly Evidence[] }) {
  const lower = text.toLowerCase();
  const ranges = quotes
    .map((q) => q.quote.trim())
    .filter((q) => q.length > 2)
    .map((q) => {
      const at = lower.indexOf(q.toLowerCase());
      return at < 0 ? null : ([at, at + q.length] as const);
    })
    .filter((r): r is readonly [number, number] => r !== null)
    .sort((a, b) => a[0] - b[0]);
  if (!ranges.length) return <>{text}</>;
  const parts: ReactNode[] = [];
  let at = 0;
  for (const [from, to] of ranges) {
    if (from < at) continue;
    parts.push(text.slice(at, from), <mark key={from}>{text.slice(from, to)}</mark>);
    at = to;
  }
  parts.push(text.slice(at));
  return <>{parts}</>;
}
