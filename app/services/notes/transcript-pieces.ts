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
  segments: readonly { start: number; end: number; text: string; confidence?: number[]; speaker?: string | null }[];
}): TranscriptPiece[] {
  const timed = transcript.segments.filter((s) => s.text.trim());
  if (timed.length)
    return timed.map((s) => {
      const text = s.text.trim();
      const piece: TranscriptPiece = { start: s.start, end: s.end, text };
      // Word confidences stay with the piece (the evidence panel marks sentences resting on unsure words).
      const confidence = validConfidence(text, s.confidence);
      if (confidence) piece.confidence = confidence;
      // Issue 26: who said it ("clinician" / "patient"), so the engines read the patient's
      // symptoms and the clinician's plan as they read an imported dialogue's.
      if (s.speaker === "clinician" || s.speaker === "patient") piece.speaker = s.speaker;
      return piece;
    });
  return piecesFromDialogue(transcript.text);
}
