import { describe, expect, it } from "vitest";
import { lowConfidenceWordsFor } from "#app/components/notes/evidence.ts";
import type { TranscriptPiece } from "#app/services/notes/model.ts";
import { transcriptPieces } from "#app/services/notes/transcript-pieces.ts";

// Issue 15 §3: the note's evidence panel says when a cited sentence rests on low-confidence words.
const pieces: TranscriptPiece[] = transcriptPieces({
  text: "",
  segments: [
    { start: 0, end: 3, text: "i take zenvaxor twice a day", confidence: [0.99, 0.9, 0.31, 0.95, 0.42, 0.97] },
    { start: 3, end: 6, text: "no chest pain", confidence: [0.99, 0.98, 0.97] },
    { start: 6, end: 9, text: "the cough is worse at night" },
  ],
});

describe("lowConfidenceWordsFor", () => {
  it("keeps confidences on the note's transcript pieces", () => {
    expect(pieces[0]?.confidence).toHaveLength(6);
    expect(pieces[2]?.confidence).toBeUndefined();
  });

  it("lists the unsure words inside the quoted words only when the quote is found", () => {
    expect(lowConfidenceWordsFor([{ start: 0, end: 3, quote: "take zenvaxor" }], pieces)).toEqual(["zenvaxor"]);
    expect(lowConfidenceWordsFor([{ start: 0, end: 3, quote: "twice a day" }], pieces)).toEqual(["a"]);
  });

  it("falls back to the whole overlapping piece when the quote is not in it", () => {
    expect(lowConfidenceWordsFor([{ start: 1, end: 2, quote: "medication twice daily" }], pieces)).toEqual(["zenvaxor", "a"]);
  });

  it("is empty for confident evidence, pieces without confidences and sentences without evidence", () => {
    expect(lowConfidenceWordsFor([{ start: 3, end: 6, quote: "no chest pain" }], pieces)).toEqual([]);
    expect(lowConfidenceWordsFor([{ start: 6, end: 9, quote: "cough" }], pieces)).toEqual([]);
    expect(lowConfidenceWordsFor([], pieces)).toEqual([]);
  });
});
