import { expect, it } from "vitest";
import { sentencesToCheck } from "#app/components/notes/to-check.ts";
import type { NoteSectionDraft, TranscriptPiece } from "#app/services/notes/model.ts";
import { LOW_CONFIDENCE } from "#app/services/speech/confidence.ts";

// Issue 29 "N to check": transcript sentences whose quoted words the engine was unsure of.
const pieces: TranscriptPiece[] = [
  { start: 0, end: 2, text: "she takes lisinopril daily", confidence: [1, 1, LOW_CONFIDENCE / 2, 1] },
  { start: 2, end: 4, text: "no known allergies", confidence: [1, 1, 1] },
  { start: 4, end: 6, text: "pain since Tuesday" },
];
const sentence = (
  text: string,
  start: number,
  end: number,
  quote: string,
  source: "transcript" | "clinician" = "transcript",
) => ({
  text,
  evidence: source === "transcript" ? [{ start, end, quote }] : [],
  supported: true,
  source,
});

it("counts the transcript sentences resting on a low-confidence word, once each", () => {
  const sections: NoteSectionDraft[] = [
    {
      key: "subjective",
      title: "Subjective",
      text: "",
      sentences: [
        sentence("Takes lisinopril daily.", 0, 2, "takes lisinopril daily"),
        sentence("No known allergies.", 2, 4, "no known allergies"),
        sentence("Pain since Tuesday.", 4, 6, "pain since Tuesday"),
      ],
    },
    {
      key: "plan",
      title: "Plan",
      text: "",
      sentences: [
        sentence("Continue lisinopril.", 0, 2, "lisinopril"),
        // Typed by the clinician: nothing for the engine to be unsure of.
        sentence("Review in a week.", 0, 2, "", "clinician"),
      ],
    },
  ];
  expect(sentencesToCheck(sections, pieces)).toBe(2);
  // Quoting only the sure words of the piece does not count.
  expect(
    sentencesToCheck([{ ...sections[0], sentences: [sentence("She takes it.", 0, 2, "she takes")] } as NoteSectionDraft], pieces),
  ).toBe(0);
  expect(sentencesToCheck([], pieces)).toBe(0);
});
