// Issue 26: the note engine reads an ASR transcript's speaker roles as it reads an imported
// dialogue's speakers: the patient's symptoms are the patient's, the clinician's plan the plan.
import { expect, it } from "vitest";
import { generateExtractive, piecesFromDialogue } from "#app/services/notes/engines/extractive/index.ts";
import { transcriptPieces } from "#app/services/notes/transcript-pieces.ts";
import { CHEST_PAIN_EN, SOAP_EN } from "./extractive-fixtures.ts";

/** The dialogue as an engine's timed segments would be, with or without roles. */
function asrSegments(withRoles: boolean) {
  return piecesFromDialogue(CHEST_PAIN_EN).map((piece, i) => ({
    start: i * 4,
    end: i * 4 + 3.5,
    text: piece.text,
    speaker: withRoles ? (piece.speaker === "doctor" ? ("clinician" as const) : ("patient" as const)) : null,
  }));
}

const sectionsOf = (segments: ReturnType<typeof asrSegments>) =>
  generateExtractive({
    template: SOAP_EN,
    transcript: transcriptPieces({ text: segments.map((s) => s.text).join(" "), segments }),
    language: "en",
  }).sections.map((s) => [s.key, s.text]);

it("segments with roles give the note the labelled dialogue gives", () => {
  const labelled = generateExtractive({ template: SOAP_EN, transcript: piecesFromDialogue(CHEST_PAIN_EN), language: "en" });
  expect(sectionsOf(asrSegments(true))).toEqual(labelled.sections.map((s) => [s.key, s.text]));
});

it("pieces carry the clinician and patient roles; an unknown or other speaker is left to the engine's guess", () => {
  const pieces = transcriptPieces({
    text: "",
    segments: [
      { start: 0, end: 1, text: "any chest pain", speaker: "clinician" },
      { start: 1, end: 2, text: "yes since monday", speaker: "patient" },
      { start: 2, end: 3, text: "hello", speaker: "other" },
      { start: 3, end: 4, text: "okay", speaker: null },
    ],
  });
  expect(pieces.map((p) => p.speaker)).toEqual(["clinician", "patient", undefined, undefined]);
  const withRoles = Object.fromEntries(sectionsOf(asrSegments(true)));
  expect(withRoles.hpi).toContain("Reports chest pain for 3 days");
  expect(withRoles.plan).toContain("aspirin 81 mg daily");
});
