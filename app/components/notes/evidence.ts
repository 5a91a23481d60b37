import type { Evidence, TranscriptPiece } from "#app/services/notes/model.ts";

/** Indexes of the transcript pieces an evidence span overlaps (a zero-length span: the piece holding it). */
export function piecesFor(evidence: readonly Evidence[], pieces: readonly TranscriptPiece[]): Set<number> {
  const hit = new Set<number>();
  for (const e of evidence) {
    pieces.forEach((p, i) => {
      const overlaps = p.start < e.end && p.end > e.start;
      const holds = e.start === e.end && p.start <= e.start && e.start <= p.end;
      if (overlaps || holds) hit.add(i);
    });
  }
  return hit;
}

/** The note as plain text, the way a clinician pastes it elsewhere: titles, then each section's text. */
export function noteAsText(sections: readonly { title: string; text: string }[]): string {
  return sections
    .filter((s) => s.text.trim())
    .map((s) => `${s.title}\n${s.text.trim()}`)
    .join("\n\n");
}
