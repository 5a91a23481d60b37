import type { NoteSectionDraft, NoteSentence, NoteTemplate, TemplateSection } from "../model.ts";
import type { PerioFindings } from "./perio-findings.ts";

// Where a periodontal chart's findings go in a note (issue 14). By section kind, so a practice's own
// copy of the periodontal-exam template keeps working whatever its titles say:
//   - the first "periodontal" section (the built-in "Periodontal charting") gets the chart summary;
//   - a "periodontal" section keyed "hygiene" gets plaque and calculus (else they join the summary);
//   - the first "assessment" section of a template that has a periodontal section gets the stage,
//     extent and grade.
// A chart-fed section is replaced, not merged: the chart is the measurement, and mixing it with
// numbers the engine guessed from the dictation would put two versions of one finding in the note.
// Fixed template text stays first. A section the chart has nothing for keeps the engine's text.

function sectionText(sentences: readonly NoteSentence[], style: TemplateSection["style"]): string {
  if (sentences.length === 0) return "";
  if (style === "bullets") return sentences.map((s) => `- ${s.text}`).join("\n");
  return sentences.map((s) => s.text).join(" ");
}

/** Section key → the chart's sentences for it (only sections the chart has something for). */
export function chartSectionPlan(template: NoteTemplate, findings: PerioFindings): Map<string, NoteSentence[]> {
  const plan = new Map<string, NoteSentence[]>();
  const periodontal = template.sections.filter((s) => s.kind === "periodontal");
  if (periodontal.length === 0) return plan;
  const hygiene = periodontal.find((s) => s.key === "hygiene");
  const charting = periodontal.find((s) => s !== hygiene);
  if (charting) plan.set(charting.key, hygiene ? findings.charting : [...findings.charting, ...findings.hygiene]);
  if (hygiene && findings.hygiene.length) plan.set(hygiene.key, findings.hygiene);
  else if (hygiene && !charting) plan.set(hygiene.key, [...findings.charting, ...findings.hygiene]);
  const assessment = template.sections.find((s) => s.kind === "assessment");
  if (assessment && findings.diagnosis.length) plan.set(assessment.key, findings.diagnosis);
  return plan;
}

/** The draft's sections with the chart-fed ones replaced (sections absent from the draft stay absent). */
export function applyChartFindings(
  template: NoteTemplate,
  sections: readonly NoteSectionDraft[],
  findings: PerioFindings,
): NoteSectionDraft[] {
  const plan = chartSectionPlan(template, findings);
  return sections.map((draft) => {
    const chart = plan.get(draft.key);
    const section = template.sections.find((s) => s.key === draft.key);
    if (!chart || !section) return draft;
    const fixed = draft.sentences.filter((s) => s.source === "template");
    const sentences = [...fixed, ...chart];
    const text = [fixed.length ? sectionText(fixed, section.style) : "", sectionText(chart, section.style)]
      .filter(Boolean)
      .join("\n");
    return { ...draft, text, sentences };
  });
}
