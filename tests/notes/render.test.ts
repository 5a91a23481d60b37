import { describe, expect, it } from "vitest";
import { headerModes, noteBlocks, noteText } from "#app/services/notes/render.ts";

describe("the note outside the editor (copy, print, PDF)", () => {
  const sections = [
    { key: "cc", title: "Chief complaint", text: "Cough." },
    { key: "meds", title: "Medications", text: "" },
    { key: "consent", title: "Consent", text: "Consent obtained." },
    { key: "plan", title: "Plan", text: "- Rest.\n" },
    { key: "ros", title: "Review of systems", text: "  " },
  ];
  const headers = headerModes({
    sections: [
      { key: "cc", header: "with_content" },
      { key: "meds", header: "always" },
      { key: "consent", header: "never" },
      { key: "plan", header: "with_content" },
      { key: "ros", header: "with_content" },
    ],
  });

  it("shows each title per its header mode and leaves out sections with neither title nor text", () => {
    expect(noteBlocks(sections, headers)).toEqual([
      { key: "cc", title: "Chief complaint", text: "Cough." },
      { key: "meds", title: "Medications", text: "" },
      { key: "consent", title: null, text: "Consent obtained." },
      { key: "plan", title: "Plan", text: "- Rest." },
    ]);
    expect(noteText(sections, headers)).toBe("Chief complaint\nCough.\n\nMedications\n\nConsent obtained.\n\nPlan\n- Rest.");
  });

  it("a section the template does not know shows its title only with content", () => {
    expect(noteBlocks([{ key: "x", title: "Extra", text: "" }], {})).toEqual([]);
  });
});
