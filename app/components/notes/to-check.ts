import type { NoteSectionDraft, TranscriptPiece } from "#app/services/notes/model.ts";
import { lowConfidenceWordsFor } from "./evidence.ts";

/**
 * Issue 29 "N to check": the sentences of a note a clinician should look at before signing. Until
 * the note checks of issue 27 land, these are the transcript sentences resting on words the speech
 * engine was unsure of (issue 15); the lead can swap the source without touching the bar.
 */
export function sentencesToCheck(sections: readonly NoteSectionDraft[], pieces: readonly TranscriptPiece[]): number {
  let count = 0;
  for (const section of sections) {
    for (const sentence of section.sentences) {
      if (sentence.source === "transcript" && lowConfidenceWordsFor(sentence.evidence, pieces).length > 0) count += 1;
    }
  }
  return count;
}
