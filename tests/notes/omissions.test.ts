// The omission list: facts said in the visit that the note does not carry, for any engine's note.
import { describe, expect, it } from "vitest";
import { generateExtractive, piecesFromDialogue } from "#app/services/notes/engines/extractive/index.ts";
import type { NoteSectionDraft } from "#app/services/notes/model.ts";
import { findOmissions } from "#app/services/notes/omissions.ts";
import { BACK_PAIN_FR, CHEST_PAIN_EN, DENTAL_EN, SOAP_EN } from "./extractive-fixtures.ts";

function handWritten(text: string): NoteSectionDraft[] {
  return [{ key: "note", title: "Note", text, sentences: [{ text, evidence: [], supported: false, source: "clinician" }] }];
}

describe("findOmissions", () => {
  const transcript = piecesFromDialogue(CHEST_PAIN_EN);

  it("lists every kind of fact when the note is empty", () => {
    const omissions = findOmissions(transcript, [], "en");
    const byKind = (kind: string) => omissions.filter((o) => o.kind === kind).map((o) => o.text);
    expect(byKind("medication")).toEqual(["lisinopril 20 mg daily", "metformin 500 mg twice a day", "aspirin 81 mg daily"]);
    expect(byKind("vital")).toEqual(["Blood pressure: 150/90", "Heart rate: 88"]);
    expect(byKind("allergy")).toEqual(["penicillin"]);
    expect(byKind("negation")).toEqual(["Denies fever or shortness of breath."]);
    expect(byKind("number")).toContain("3 days");
    expect(byKind("plan").join(" ")).toContain("order an ekg and a stress test");
    for (const omission of omissions) {
      expect(omission.evidence.length).toBeGreaterThan(0);
      expect(omission.evidence[0]?.quote.length).toBeGreaterThan(0);
    }
  });

  it("lists nothing the note already carries", () => {
    const draft = generateExtractive({ template: SOAP_EN, transcript, language: "en" });
    expect(findOmissions(transcript, draft.sections, "en")).toEqual([]);
  });

  it("works on a hand-written note and only reports what is missing from it", () => {
    const note = handWritten(
      "Chest pain for 3 days. On lisinopril 20 mg daily and metformin 500 mg twice a day. Allergic to penicillin. BP 150/90, HR 88. Denies fever.",
    );
    const omissions = findOmissions(transcript, note, "en");
    expect(omissions.map((o) => [o.kind, o.text])).toEqual([
      ["negation", "Denies shortness of breath."],
      ["medication", "aspirin 81 mg daily"],
      ["plan", "i am going to order an ekg and a stress test, and i want you to start aspirin 81 mg daily."],
    ]);
  });

  it("finds missing tooth numbers", () => {
    const omissions = findOmissions(
      piecesFromDialogue(DENTAL_EN),
      handWritten("Cavity on tooth 19, 5 mm pocket, cleaning in 6 months."),
      "en",
    );
    expect(omissions.filter((o) => o.kind === "tooth").map((o) => o.text)).toEqual(["30"]);
  });

  it("works in French", () => {
    const omissions = findOmissions(piecesFromDialogue(BACK_PAIN_FR), handWritten("Lombalgie depuis 2 semaines."), "fr");
    const kinds = omissions.map((o) => o.kind);
    expect(omissions.find((o) => o.kind === "medication")?.text).toBe("paracétamol 1000 mg 3 fois par jour");
    expect(omissions.find((o) => o.kind === "vital")?.text).toBe("Tension artérielle: 130/80");
    expect(omissions.filter((o) => o.kind === "negation").map((o) => o.text)).toEqual(["Pas de fièvre ni nausées."]);
    expect(kinds).toContain("plan");
  });
});
