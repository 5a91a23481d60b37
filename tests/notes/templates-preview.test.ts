import { describe, expect, it } from "vitest";
import { NOTE_LANGUAGES } from "#app/services/notes/model.ts";
import { getBuiltinTemplate } from "#app/services/notes/templates/builtin/index.ts";
import { previewWithSampleVisit } from "#app/services/notes/templates/engine-preview.server.ts";
import { sampleTranscript } from "#app/services/notes/templates/sample-transcript.ts";

// The editor's "Preview with sample visit": an unsaved template through the extractive engine on
// the bundled sample transcript, in the template's language.
describe("template preview with the sample visit", () => {
  for (const language of NOTE_LANGUAGES) {
    it(`drafts every section of SOAP in ${language}, in template order`, () => {
      const soap = getBuiltinTemplate("builtin:soap", language);
      const preview = previewWithSampleVisit(soap);
      expect(preview.language).toBe(language);
      expect(preview.sections.map((s) => s.key)).toEqual(soap?.sections.map((s) => s.key));
      // The sample's blood pressure is said explicitly: a draft of it carries the number.
      expect(preview.sections.map((s) => s.text).join("\n")).toContain("152");
      expect(
        sampleTranscript(language)
          .map((p) => p.text)
          .join(" "),
      ).toContain("152");
    });
  }

  it("refuses an invalid template with its code, like a save would", () => {
    expect(() => previewWithSampleVisit({ name: "x", language: "en", sections: [] })).toThrow(
      expect.objectContaining({ status: 400, code: "template_sections_count" }),
    );
  });
});
