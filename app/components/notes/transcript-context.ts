import { createContext, useContext } from "react";
import type { TranscriptPiece } from "#app/services/notes/model.ts";

/**
 * The note's transcript pieces, for the sentence lists deep in the draft and signed views (they
 * mark sentences whose evidence rests on low-confidence words) without threading it through each.
 */
export const TranscriptPiecesContext = createContext<readonly TranscriptPiece[]>([]);

export function useTranscriptPieces(): readonly TranscriptPiece[] {
  return useContext(TranscriptPiecesContext);
}
