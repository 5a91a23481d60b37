import type { TranscriptPiece } from "../../model.ts";

/** Seconds per word for the synthetic clock of an imported dialogue (~150 words a minute). */
const SECONDS_PER_WORD = 0.4;

/**
 * An imported dialogue ("[doctor] …" / "[patient] …" lines, as in ACI-Bench) as transcript pieces.
 * Nothing was recorded, so each line gets a synthetic time proportional to its words.
 */
export function piecesFromDialogue(text: string): TranscriptPiece[] {
  const pieces: TranscriptPiece[] = [];
  let clock = 0;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (!line) continue;
    const match = /^\[([^\]]{1,40})\]\s*(.*)$/.exec(line) ?? /^([A-Za-zÀ-ÿ]{2,20}):\s+(.*)$/.exec(line);
    const speaker = match ? (match[1] ?? "").trim().toLowerCase() : undefined;
    const body = (match ? (match[2] ?? "") : line).trim();
    if (!body) continue;
    const words = body.split(/\s+/).length;
    const duration = Math.max(1, words * SECONDS_PER_WORD);
    const piece: TranscriptPiece = { start: round(clock), end: round(clock + duration), text: body };
    if (speaker) piece.speaker = speaker;
    pieces.push(piece);
    clock += duration;
  }
  return pieces;
}

function round(seconds: number): number {
  return Math.round(seconds * 100) / 100;
}
