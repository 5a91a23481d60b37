import type { NoteTemplate, TemplateSection } from "#app/services/notes/model.ts";

const section = (
  key: string,
  title: string,
  kind: TemplateSection["kind"],
  extra: Partial<TemplateSection> = {},
): TemplateSection => ({
  key,
  title,
  kind,
  header: "with_content",
  style: "prose",
  verbosity: "standard",
  persistent: false,
  ...extra,
});

/** The ACI-Bench reference notes' own section layout, so scores compare like with like. */
export const ACI_TEMPLATE: NoteTemplate = {
  id: "bench:aci",
  name: "ACI-Bench note",
  language: "en",
  sections: [
    section("chief_complaint", "CHIEF COMPLAINT", "chief_complaint"),
    section("hpi", "HISTORY OF PRESENT ILLNESS", "hpi", { verbosity: "detailed" }),
    section("ros", "REVIEW OF SYSTEMS", "ros", { style: "bullets" }),
    section("exam", "PHYSICAL EXAMINATION", "exam", { verbosity: "detailed" }),
    section("results", "RESULTS", "results", { verbosity: "detailed" }),
    section("assessment_plan", "ASSESSMENT AND PLAN", "assessment_plan"),
  ],
};
