import { piecesFromDialogue } from "./engines/extractive/dialogue.ts";
import type { TranscriptPiece } from "./model.ts";

/**
 * The transcript as the engines read it. ASR segments keep their audio times; an imported text
 * has none, so its lines become pieces on a synthetic clock ("[doctor] …" / "Doctor: …" keep
 * their speaker), and evidence still points somewhere in order.
 */
export function transcriptPieces(transcript: {
  text: string;
  segments: readonly { start: number; end: number; text: string }[];
}): TranscriptPiece[] {
  const timed = transcript.segments.filter((s) => s.text.trim());
  if (timed.length) return timed.map((s) => ({ start: s.start, end: s.end, text: s.text.trim() }));
  return piecesFromDialogue(transcript.text);
}
