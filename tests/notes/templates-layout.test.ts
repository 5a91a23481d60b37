// The assessment-and-plan layout option (issue 18): validated like the other section options,
// kept only on an assessment-and-plan section, absent = by problem.
import { describe, expect, it } from "vitest";
import { fromEditorSection, toEditorSection } from "#app/components/templates/editor-state.ts";
import type { TemplateSection } from "#app/services/notes/model.ts";
import { normalizeSections, TemplateContentSchema, validateTemplate } from "#app/services/notes/templates/template-schema.ts";

const ap = (extra: Record<string, unknown> = {}) => ({
  key: "ap",
  title: "Assessment and plan",
  kind: "assessment_plan",
  header: "always",
  style: "prose",
  verbosity: "standard",
  persistent: false,
  ...extra,
});
const content = (section: Record<string, unknown>) => ({ name: "T", language: "en", sections: [section] });

describe("assessment-and-plan layout", () => {
  it("accepts problems, separate or nothing", () => {
    for (const layout of ["problems", "separate", undefined]) {
      const result = validateTemplate(TemplateContentSchema, content(ap(layout ? { layout } : {})));
      expect(result.ok).toBe(true);
    }
  });

  it("refuses a layout Murmur does not know, with the section option code", () => {
    const result = validateTemplate(TemplateContentSchema, content(ap({ layout: "soap" })));
    expect(result).toMatchObject({ ok: false, code: "template_section_option_invalid", path: "sections.0.layout" });
  });

  it("is kept on an assessment-and-plan section only", () => {
    const [kept, dropped] = normalizeSections([
      ap({ layout: "separate" }) as TemplateSection,
      { ...(ap({ layout: "separate" }) as TemplateSection), key: "plan", kind: "plan" },
    ]);
    expect(kept?.layout).toBe("separate");
    expect(dropped && "layout" in dropped).toBe(false);
  });

  it("round-trips through the editor's working copy", () => {
    const section = ap({ layout: "separate" }) as TemplateSection;
    expect(fromEditorSection(toEditorSection(section)).layout).toBe("separate");
    expect(fromEditorSection({ ...toEditorSection(section), kind: "plan" }).layout).toBeUndefined();
  });
});
