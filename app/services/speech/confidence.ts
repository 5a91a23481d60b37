/**
 * Word confidence as transcripts store it (issue 15 "Quality you can see"): one 0–1 value per
 * word of a segment's text, from the engine (pocketsphinx's posterior probabilities). Shared by the
 * server and the transcript view, so it imports nothing server-only.
 */

/**
 * Below this a word is shown as "check this word". pocketsphinx's posteriors are near 1 for most
 * words it gets right and spread low for its guesses; 0.5 marks about one word in five of the
 * conversation bench's output (docs/speech.md "Low-confidence words").
 */
export const LOW_CONFIDENCE = 0.5;

export interface ConfidentWord {
  word: string;
  confidence?: number;
}

/** Per-word confidences of a segment, when every word has one and they line up with its text; else undefined. */
export function segmentConfidence(text: string, words: readonly ConfidentWord[] | undefined): number[] | undefined {
  if (!words || words.length === 0) return undefined;
  const tokens = text.split(" ").filter(Boolean);
  if (tokens.length !== words.length || words.some((w, i) => w.word !== tokens[i] || typeof w.confidence !== "number"))
    return undefined;
  return words.map((w) => Math.round((w.confidence as number) * 1000) / 1000);
}

/** Confidences as read back from storage: kept only when they still fit the text (one per word, 0–1). */
export function validConfidence(text: string, value: unknown): number[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const words = text.split(" ").filter(Boolean).length;
  if (value.length !== words || !value.every((c) => typeof c === "number" && c >= 0 && c <= 1)) return undefined;
  return value as number[];
}

/** The segment's words, each with whether it is low-confidence (for the transcript view and the evidence panel). */
export function markedWords(text: string, confidence: readonly number[] | undefined): { word: string; low: boolean }[] {
  const words = text.split(" ").filter(Boolean);
  return words.map((word, i) => ({ word, low: confidence !== undefined && (confidence[i] ?? 1) < LOW_CONFIDENCE }));
}
