import { describe, expect, it } from "vitest";
import { NOTE_LANGUAGES } from "#app/services/notes/model.ts";
import { BUILTIN_TEMPLATE_IDS, BUILTIN_TEMPLATES, getBuiltinTemplate } from "#app/services/notes/templates/builtin/index.ts";
import { previewSections } from "#app/services/notes/templates/preview.ts";
import {
  TemplateContentSchema,
  TemplateDocumentSchema,
  templateDocument,
  validateTemplate,
} from "#app/services/notes/templates/template-schema.ts";

// Issue 6's built-in library: every template in every language validates, has the same section
// keys (and kinds and options) in every language, and its words are really translated.
describe("built-in templates", () => {
  it("has the eight stable ids of the issue", () => {
    expect(BUILTIN_TEMPLATE_IDS).toEqual([
      "builtin:soap",
      "builtin:history_physical",
      "builtin:progress",
      "builtin:dental_exam",
      "builtin:periodontal_exam",
      "builtin:procedure",
      "builtin:referral",
      "builtin:patient_instructions",
    ]);
    expect(getBuiltinTemplate("builtin:unknown", "en")).toBeNull();
  });

  for (const id of BUILTIN_TEMPLATE_IDS) {
    describe(id, () => {
      for (const language of NOTE_LANGUAGES) {
        it(`validates in ${language} and exports as a valid document`, () => {
          const template = getBuiltinTemplate(id, language);
          expect(template?.id).toBe(id);
          expect(template?.language).toBe(language);
          const result = validateTemplate(TemplateContentSchema, template);
          expect(result.ok ? "ok" : result.message).toBe("ok");
          if (!template) return;
          expect(TemplateDocumentSchema.safeParse(templateDocument(template, id)).success).toBe(true);
          for (const s of template.sections) expect(s.title.trim()).not.toBe("");
        });
      }

      it("has identical keys, kinds and options in every language, and translated words", () => {
        const [en, fr, es] = NOTE_LANGUAGES.map((l) => getBuiltinTemplate(id, l));
        const shape = (t: typeof en) =>
          t?.sections.map((s) => [
            s.key,
            s.kind,
            s.header,
            s.style,
            s.verbosity,
            s.persistent,
            !!s.fixedText,
            s.placeholders?.length ?? 0,
          ]);
        expect(shape(fr)).toEqual(shape(en));
        expect(shape(es)).toEqual(shape(en));
        expect(fr?.name).not.toBe(en?.name);
        expect(es?.name).not.toBe(en?.name);
        // A section whose instructions read the same in two languages was not translated.
        for (const [i, s] of (en?.sections ?? []).entries()) {
          if (s.instructions) {
            expect(fr?.sections[i]?.instructions).not.toBe(s.instructions);
            expect(es?.sections[i]?.instructions).not.toBe(s.instructions);
          }
        }
      });
    });
  }

  it("sets a kind on every section and marks medications and allergies persistent wherever they appear", () => {
    for (const template of BUILTIN_TEMPLATES) {
      for (const s of template.sections) {
        expect(s.kind).toBeTruthy();
        if (s.kind === "allergies" || (s.kind === "medications" && template.id !== "builtin:patient_instructions")) {
          expect(s.persistent, `${template.id}/${s.key}`).toBe(true);
        }
      }
    }
    const progress = getBuiltinTemplate("builtin:progress", "en");
    expect(progress?.sections.find((s) => s.key === "problem_list")?.persistent).toBe(true);
  });

  it("the preview shows headers by mode, fixed text and bracketed placeholders, never instructions", () => {
    const referral = getBuiltinTemplate("builtin:referral", "fr");
    if (!referral) throw new Error("no referral");
    const preview = previewSections(referral);
    const salutation = preview.find((s) => s.key === "salutation");
    expect(salutation?.title).toBeNull();
    expect(salutation?.lines).toEqual([{ text: "Cher confrère, chère consœur,", source: "fixed" }]);
    expect(preview.find((s) => s.key === "reason")?.lines).toEqual([{ text: "[spécialité]", source: "placeholder" }]);
    expect(preview.find((s) => s.key === "history")?.fromVisit).toBe(true);
    expect(JSON.stringify(preview)).not.toContain("brièvement");
  });
});
