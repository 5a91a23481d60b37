// Splitting a transcript into sentences with speaker and audio time, and the text clean-up
// the note's wording rests on.
import { describe, expect, it } from "vitest";
import { piecesFromDialogue } from "#app/services/notes/engines/extractive/index.ts";
import { lexiconFor } from "#app/services/notes/engines/extractive/lexicon.ts";
import { transcriptSentences } from "#app/services/notes/engines/extractive/sentences.ts";
import {
  cleanSpeech,
  expandContractions,
  numbersToDigits,
  punctuate,
  shortUnits,
  splitSentences,
  tidySpacing,
} from "#app/services/notes/engines/extractive/text.ts";

const en = lexiconFor("en");

describe("piecesFromDialogue", () => {
  it("turns [speaker] lines into pieces with a synthetic, increasing clock", () => {
    const pieces = piecesFromDialogue("[doctor] how are you today ?\n\n[patient] i have a cough .\nno tag here");
    expect(pieces.map((p) => p.speaker)).toEqual(["doctor", "patient", undefined]);
    expect(pieces.map((p) => p.text)).toEqual(["how are you today ?", "i have a cough .", "no tag here"]);
    expect(pieces[0]?.start).toBe(0);
    for (let i = 1; i < pieces.length; i++) {
      expect(pieces[i]?.start).toBe(pieces[i - 1]?.end);
      expect(pieces[i]?.end).toBeGreaterThan(pieces[i]?.start ?? 0);
    }
  });

  it("also reads 'Doctor: …' lines", () => {
    expect(piecesFromDialogue("Doctor: any pain?\nPatient: no.").map((p) => p.speaker)).toEqual(["doctor", "patient"]);
  });
});

describe("transcriptSentences", () => {
  it("splits pieces into sentences with proportional times and roles", () => {
    const sentences = transcriptSentences(
      [
        { start: 10, end: 20, text: "i have had a cough. it started monday.", speaker: "patient" },
        { start: 20, end: 24, text: "any fever?", speaker: "Doctor" },
        { start: 24, end: 26, text: "no" },
      ],
      "en",
      en,
    );
    expect(sentences.map((s) => s.quote)).toEqual(["i have had a cough.", "it started monday.", "any fever?", "no"]);
    expect(sentences.map((s) => s.role)).toEqual(["patient", "patient", "doctor", "unknown"]);
    expect(sentences[0]?.start).toBe(10);
    expect(sentences[0]?.end).toBeCloseTo(10 + (10 * 19) / 38, 2);
    expect(sentences[1]?.end).toBe(20);
    expect(sentences[2]).toMatchObject({ start: 20, end: 24, question: true });
  });

  it("does not split on decimals or titles", () => {
    expect(splitSentences("Dr. Lee gave 2.5 mg. Then stop.").map((s) => s.text)).toEqual(["Dr. Lee gave 2.5 mg.", "Then stop."]);
  });
});

describe("clean-up", () => {
  it("puts corpus spacing back and spells out contractions", () => {
    const tidy = tidySpacing("i do n't know , it 's been 3 days .", "en");
    expect(tidy).toBe("i don't know, it's been 3 days.");
    expect(expandContractions(tidy, "en")).toBe("i do not know, it has been 3 days.");
    expect(expandContractions("she's a 45 year old woman", "en")).toBe("she is a 45-year-old woman");
  });

  it("removes fillers, stutters and openers", () => {
    expect(cleanSpeech("so , okay , um , my , my knee has been , uh , hurting you know .", en)).toBe(
      "my knee has been, hurting.",
    );
    expect(cleanSpeech("yeah . i , i fell", en)).toBe("i fell");
  });

  it("writes spelled-out numbers as digits only before units or when compound", () => {
    expect(numbersToDigits("six months ago, twenty five pounds, one of them, forty", en)).toBe(
      "6 months ago, 25 pounds, one of them, 40",
    );
    expect(numbersToDigits("deux semaines", lexiconFor("fr"))).toBe("2 semaines");
    expect(numbersToDigits("tres días", lexiconFor("es"))).toBe("3 días");
    expect(numbersToDigits("six hundred milligrams, two hundred and fifty", en)).toBe("600 milligrams, 250");
  });

  it("reads blood pressures and sugars said digit group by digit group, but not times", () => {
    expect(numbersToDigits("blood pressure is one twenty two over seventy", en)).toBe("blood pressure is 122 over 70");
    expect(numbersToDigits("my sugar runs about one thirty", en)).toBe("my sugar runs about 130");
    expect(numbersToDigits("i take it at eight thirty in the morning", en)).toBe("i take it at eight 30 in the morning");
  });

  it("writes units as notes do", () => {
    expect(shortUnits("lisinopril 20 milligrams, 95 percent")).toBe("lisinopril 20 mg, 95%");
  });

  it("cuts unpunctuated speech into sentences and questions, and leaves punctuated speech alone", () => {
    expect(punctuate("okay so how long has this been going on i would say about two weeks but last week it got worse", en)).toBe(
      "okay so how long has this been going on? i would say about two weeks. but last week it got worse.",
    );
    expect(punctuate("any fever", en)).toBe("any fever?");
    // A finding verb keeps its object; an exam lead-in opens a sentence, its possessive stays with it.
    expect(
      punctuate("on your neck exam i don't appreciate any bruits on your lung exam your lungs are clear to auscultation", en),
    ).toBe("on your neck exam i don't appreciate any bruits. on your lung exam. your lungs are clear to auscultation.");
    expect(punctuate("I have a cough. It started Monday.", en)).toBe("I have a cough. It started Monday.");
    expect(punctuate("il y a une douleur", lexiconFor("fr"))).toBe("il y a une douleur");
  });
});
