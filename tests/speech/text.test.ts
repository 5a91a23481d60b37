import { describe, expect, it } from "vitest";
import { integerToWords, normaliseText } from "#app/services/speech/text-normalise.ts";
import { wer, wordErrors } from "#app/services/speech/wer.ts";

describe("normaliseText", () => {
  it("spells out numbers, units and blood pressures and drops punctuation", () => {
    expect(normaliseText("BP 120/80, HR 72 bpm; lisinopril 10mg.")).toBe(
      "bp one hundred twenty over eighty hr seventy two beats per minute lisinopril ten milligrams",
    );
    expect(normaliseText("Temp 37.2, SpO2 98% — follow-up in 2 weeks")).toBe(
      "temp thirty seven point two spo two ninety eight percent follow up in two weeks",
    );
    expect(normaliseText("The patient's gums don't bleed")).toBe("the patient's gums don't bleed");
  });

  it("spells whole numbers", () => {
    expect(integerToWords(0)).toBe("zero");
    expect(integerToWords(101)).toBe("one hundred one");
    expect(integerToWords(2500)).toBe("two thousand five hundred");
  });
});

describe("word error rate", () => {
  it("counts substitutions, deletions and insertions against the reference", () => {
    expect(wordErrors("bleeding on probing", "bleeding on probing")).toEqual({
      substitutions: 0,
      deletions: 0,
      insertions: 0,
      referenceWords: 3,
    });
    expect(wordErrors("the lower left molar", "the lower molar")).toMatchObject({
      deletions: 1,
      substitutions: 0,
      insertions: 0,
    });
    expect(wordErrors("the lower left molar", "the lower lower left molar")).toMatchObject({ insertions: 1 });
    expect(wordErrors("the lower left molar", "a lower left molar")).toMatchObject({ substitutions: 1 });
    expect(wer("one two three four", "")).toBe(1);
    expect(wer("ten milligrams", "10 mg")).toBe(0);
  });
});
