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
