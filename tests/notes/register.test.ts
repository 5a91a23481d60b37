// The register counter of bench/notes (issue 18): what it counts as first or second person, a
// filler and a fragment, on sentences written for this test, and that a note's sections are read
// from its headings the same way for the engine's notes and the reference notes.
import { describe, expect, it } from "vitest";
import {
  countSentences,
  hasFiller,
  hasVerb,
  isFirstOrSecondPerson,
  noteSentencesBySection,
  registerOf,
} from "../../bench/notes/register.ts";

describe("first or second person (I, we, you, my, our, your outside quoted speech)", () => {
  it.each([
    "I do appreciate a slight 3 out of 6 systolic ejection murmur.",
    "We saw the chest x-ray, there is no pneumonia.",
    "I'm going to start Lasix.",
    "We'll order a hemoglobin A1c in a month.",
    "You've been swelling up.",
    "Your lungs are clear.",
    "Her and my nurse reviewed the labs.",
    "Our plan is to start metformin.",
    "The patient states she hurt her knee but I think it is sprained.",
  ])("counts %s", (sentence) => {
    expect(isFirstOrSecondPerson(sentence)).toBe(true);
  });

  it.each([
    "No jugular venous distension.",
    "Reports leg swelling.",
    "Start Lasix 40 mg daily.",
    "She will follow up with me in 2 weeks.",
    "The patient was instructed to call us if symptoms worsen.",
    'She states "I feel fine" and denies chest pain.',
    "He describes it as “like my chest is in a vise”.",
    "History of type I diabetes.",
    "Grade I ankle sprain.",
    "Hemoglobin A1c in 1 month.",
  ])("does not count %s", (sentence) => {
    expect(isFirstOrSecondPerson(sentence)).toBe(false);
  });

  it("still counts a pronoun outside the quotation of the same sentence", () => {
    expect(isFirstOrSecondPerson('She said "it hurts" and I agree.')).toBe(true);
  });
});

describe("fillers and fragments", () => {
  it("finds spoken fillers and not clinical words that contain them", () => {
    expect(hasFiller("Um, she has a cough.")).toBe(true);
    expect(hasFiller("We will go ahead and order an x-ray.")).toBe(true);
    expect(hasFiller("She has, you know, some pain.")).toBe(true);
    expect(hasFiller("Sorting of medications reviewed.")).toBe(false);
    expect(hasFiller("Likely viral infection.")).toBe(false);
  });

  it("treats a sentence without a verb as a fragment", () => {
    expect(hasVerb("Probably about 10 days.")).toBe(false);
    expect(hasVerb("Lungs: Clear to auscultation.")).toBe(false);
    expect(hasVerb("She reports swelling for about 10 days.")).toBe(true);
    expect(hasVerb("Start Lasix 40 mg daily.")).toBe(true);
  });
});

describe("sections and counts", () => {
  const note = [
    "CHIEF COMPLAINT",
    "",
    "Knee pain.",
    "",
    "HISTORY OF PRESENT ILLNESS",
    "",
    "She reports knee pain for 2 weeks. I saw her last year.",
    "",
    "ASSESSMENT AND PLAN",
    "",
    "1. Knee pain: Likely strain.",
    "- We will order an x-ray.",
  ].join("\n");

  it("reads sentences under the heading they follow, without bullets or list numbers", () => {
    const bySection = noteSentencesBySection(note);
    expect(bySection.get("chief_complaint")).toEqual(["Knee pain."]);
    expect(bySection.get("hpi")).toEqual(["She reports knee pain for 2 weeks.", "I saw her last year."]);
    expect(bySection.get("assessment_plan")).toEqual(["Knee pain: Likely strain.", "We will order an x-ray."]);
  });

  it("counts per section and for the whole note", () => {
    const counts = registerOf([note]);
    expect(counts.get("hpi")).toMatchObject({ sentences: 2, person: 1 });
    expect(counts.get("assessment_plan")).toMatchObject({ sentences: 2, person: 1, fragment: 1 });
    expect(counts.get("all")).toMatchObject({ sentences: 5, person: 2 });
    expect(countSentences(["Um, okay.", "Denies fever."])).toMatchObject({ sentences: 2, filler: 1, fragment: 1, words: 4 });
  });
});
