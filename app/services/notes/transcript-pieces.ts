import { validConfidence } from "#app/services/speech/confidence.ts";
import { piecesFromDialogue } from "./engines/extractive/dialogue.ts";
import type { TranscriptPiece } from "./model.ts";

/**
 * The transcript as the engines read it. ASR segments keep their audio times; an imported text
 * has none, so its lines become pieces on a synthetic clock ("[doctor] …" / "Doctor: …" keep
 * their speaker), and evidence still points somewhere in order.
 */
export function transcriptPieces(transcript: {
  text: string;
  segments: readonly { start: number; end: number; text: string; confidence?: number[] }[];
}): TranscriptPiece[] {
  const timed = transcript.segments.filter((s) => s.text.trim());
  if (timed.length)
    return timed.map((s) => {
      const text = s.text.trim();
      // Word confidences stay with the piece (the evidence panel marks sentences resting on unsure words).
      const confidence = validConfidence(text, s.confidence);
      return confidence ? { start: s.start, end: s.end, text, confidence } : { start: s.start, end: s.end, text };
    });
  return piecesFromDialogue(transcript.text);
}
