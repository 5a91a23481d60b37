import { describe, expect, it } from "vitest";
import { checkTarget, sentenceAnchor } from "#app/components/notes/sentence-anchor.ts";

// Issue 27: a check's link goes to its own sentence (section key + index), else to its section.
describe("checkTarget", () => {
  const sections = [
    { key: "subjective", sentences: [{ text: "Cough for a week." }, { text: "Denies fever or shortness of breath." }] },
    { key: "plan", sentences: [] },
  ] as never;

  it("finds the sentence by its text in its section", () => {
    expect(checkTarget({ section: "subjective", sentence: " Denies fever or shortness of breath." }, sections)).toBe(
      sentenceAnchor("subjective", 1),
    );
    expect(sentenceAnchor("subjective", 1)).toBe("note-sentence-subjective-1");
  });

  it("falls back to the section, or to nothing without one", () => {
    expect(checkTarget({ section: "subjective", sentence: "Edited away." }, sections)).toBe("note-section-subjective");
    expect(checkTarget({ section: "plan", sentence: null }, sections)).toBe("note-section-plan");
    expect(checkTarget({ section: "gone", sentence: "x" }, sections)).toBeNull();
    expect(checkTarget({ section: null, sentence: null }, sections)).toBeNull();
  });
});
