import type { Evidence, TranscriptPiece } from "#app/services/notes/model.ts";
import { markedWords } from "#app/services/speech/confidence.ts";

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

/**
 * The low-confidence words (issue 15) a sentence's evidence rests on, in transcript order, each
 * once: within the quoted words when the quote is found in the piece, else anywhere in a piece the
 * evidence overlaps (the sentence may rest on any of it).
 */
export function lowConfidenceWordsFor(evidence: readonly Evidence[], pieces: readonly TranscriptPiece[]): string[] {
  const found: string[] = [];
  const hits = [...piecesFor(evidence, pieces)].sort((a, b) => a - b);
  for (const index of hits) {
    const piece = pieces[index];
    if (!piece?.confidence) continue;
    const words = markedWords(piece.text, piece.confidence);
    const ranges = quotedRanges(piece, evidence);
    let at = 0;
    words.forEach((w) => {
      const from = piece.text.indexOf(w.word, at);
      at = from + w.word.length;
      const inQuote = ranges.length === 0 || ranges.some(([a, b]) => from < b && at > a);
      if (w.low && inQuote && !found.includes(w.word)) found.push(w.word);
    });
  }
  return found;
}

/** Character ranges of the evidence quotes found in a piece's text (case-insensitive). */
function quotedRanges(piece: TranscriptPiece, evidence: readonly Evidence[]): [number, number][] {
  const lower = piece.text.toLowerCase();
  return evidence.flatMap((e) => {
    const quote = e.quote.trim().toLowerCase();
    const at = quote.length > 2 ? lower.indexOf(quote) : -1;
    return at < 0 ? [] : [[at, at + quote.length] as [number, number]];
  });
}
