// Which candidates a template section takes: by kind (a custom "other" section by its title and
// instructions), with fallbacks when the template has no section of a candidate's kind.
import type { SectionKind, TemplateSection } from "../../model.ts";
import type { Lexicon } from "./lexicon.ts";

export function resolveKind(section: TemplateSection, lexicon: Lexicon): SectionKind {
  if (section.kind !== "other") return section.kind;
  const words = `${section.title} ${section.instructions ?? ""}`;
  for (const [re, kind] of lexicon.titleKinds) if (re.test(words)) return kind;
  return "other";
}

/** Where a candidate of each kind goes, in order of preference. */
const FALLBACKS: Record<SectionKind, SectionKind[]> = {
  chief_complaint: ["chief_complaint"],
  hpi: ["hpi", "history", "other"],
  history: ["history", "hpi"],
  medications: ["medications", "history"],
  // An allergen is never listed as a medication; without an allergies section the sentence itself stays in the history.
  allergies: ["allergies"],
  ros: ["ros", "hpi"],
  vitals: ["vitals", "exam", "dental_exam"],
  exam: ["exam", "dental_exam", "periodontal"],
  results: ["results", "exam"],
  assessment: ["assessment", "assessment_plan"],
  plan: ["plan", "assessment_plan"],
  assessment_plan: ["assessment_plan"],
  dental_exam: ["dental_exam", "periodontal", "exam"],
  periodontal: ["periodontal", "dental_exam", "exam"],
  procedure: ["procedure", "plan"],
  referral: ["referral"],
  patient_instructions: ["patient_instructions"],
  other: ["other"],
};

/** For each candidate kind, the index of the section that takes it (or none). */
export function routeKinds(kinds: SectionKind[]): Map<SectionKind, number> {
  const routes = new Map<SectionKind, number>();
  for (const [candidateKind, chain] of Object.entries(FALLBACKS) as [SectionKind, SectionKind[]][]) {
    for (const target of chain) {
      const index = kinds.indexOf(target);
      if (index >= 0) {
        routes.set(candidateKind, index);
        break;
      }
    }
  }
  return routes;
}

/** Words a section holds at standard verbosity. */
const BUDGET: Record<SectionKind, number> = {
  chief_complaint: 12,
  hpi: 170,
  history: 60,
  medications: 50,
  allergies: 20,
  ros: 50,
  vitals: 30,
  exam: 90,
  results: 60,
  assessment: 80,
  plan: 120,
  assessment_plan: 170,
  dental_exam: 90,
  periodontal: 90,
  procedure: 90,
  referral: 90,
  patient_instructions: 60,
  other: 60,
};

const VERBOSITY = { concise: 0.5, standard: 1, detailed: 2 } as const;

export function wordBudget(kind: SectionKind, verbosity: TemplateSection["verbosity"]): number {
  return Math.round(BUDGET[kind] * VERBOSITY[verbosity]);
}
