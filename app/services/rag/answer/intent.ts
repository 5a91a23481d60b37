import { words } from "../expand.ts";
import type { RagLanguage } from "../phrases.server.ts";

// What a records question asks for (issue 28 "questions about a note section go to that section
// first"), and which language it is written in (the answer's fixed words follow the question).
// Pure and isomorphic: the ranking, both answer engines, the bench and the tests share it.

export type SectionIntent = "plan" | "allergies" | "medications" | "assessment";

interface IntentRule {
  intent: SectionIntent;
  /** Folded question words (en, fr, es) that name the section. */
  words: RegExp;
  /** Template section keys (SECTION_KINDS) holding it. */
  fields: string[];
  /** A custom section's folded title holding it (any language). */
  title: string;
}

const RULES: IntentRule[] = [
  {
    intent: "allergies",
    words: /^(allerg\w*|alerg\w*)$/,
    fields: ["allergies"],
    title: "allerg|alerg",
  },
  {
    intent: "medications",
    words: /^(medications?|medicines?|meds|prescriptions?|medicaments?|traitements?|medicamentos?|medicacion|medicinas?)$/,
    fields: ["medications"],
    title: "medic|traitement|tratamiento|prescri",
  },
  {
    intent: "assessment",
    words: /^(assessment|diagnosis|diagnoses|impression|evaluation|diagnostic|diagnostico|evaluacion)$/,
    fields: ["assessment", "assessment_plan"],
    title: "assess|evalua|diagnos|impression",
  },
  {
    intent: "plan",
    words: /^(plan|plans|follow-up|followup|suivi|conduite|seguimiento)$/,
    fields: ["plan", "assessment_plan"],
    title: "plan|conduite|prise en charge",
  },
];

export interface SectionRoute {
  intent: SectionIntent;
  fields: string[];
  /** A POSIX regular expression over the folded section title (app.rag_fold). */
  title: string;
  /** The question words that named the section: they say where to look, not what to find. */
  cue: string[];
}

/** The note section a question asks about, or null ("What dose of lisinopril?" names none). */
export function sectionRoute(question: string): SectionRoute | null {
  const ws = words(question);
  for (const rule of RULES) {
    const cue = ws.filter((w) => rule.words.test(w));
    // "allergic" reads as a question about the Allergies section ("What is he allergic to?").
    if (cue.length) return { intent: rule.intent, fields: rule.fields, title: rule.title, cue };
  }
  return null;
}

/** Whether a passage is part of the section a route names (by template key or by title). */
export function inSection(route: SectionRoute, p: { table: string; field: string; label: string }): boolean {
  if (p.table !== "doctor_notes") return false;
  if (route.fields.includes(p.field)) return true;
  return new RegExp(route.title).test(words(p.label).join(" "));
}

const MARKERS: Record<Exclude<RagLanguage, "en">, Set<string>> = {
  fr: new Set(
    "quel quelle quels quelles est-ce qu'est que qu'il qu'elle il elle le la les du des est sont prend pour avec dans son sa ses est-il a-t-il allergique traitement patiente".split(
      " ",
    ),
  ),
  es: new Set(
    "cual cuales que es el la los las del esta estan toma para con su sus tiene alergico alergica paciente tratamiento".split(
      " ",
    ),
  ),
};
const EN = new Set("what which is are the of does do he she his her taking take allergic patient plan for with".split(" "));

/** The question's language by its function words, the reader's language when it cannot tell. */
export function questionLanguage(question: string, fallback: RagLanguage): RagLanguage {
  const ws = words(question);
  const votes = {
    en: ws.filter((w) => EN.has(w)).length,
    fr: ws.filter((w) => MARKERS.fr.has(w)).length,
    es: ws.filter((w) => MARKERS.es.has(w)).length,
  };
  // Accented letters and inverted marks settle close calls.
  if (/[¿¡ñ]/.test(question)) votes.es += 2;
  if (/[èêàçù]|qu'|l'|d'/.test(question.toLowerCase())) votes.fr += 1;
  const best = (Object.entries(votes) as [RagLanguage, number][]).sort((a, b) => b[1] - a[1]);
  const [first, second] = best;
  if (!first || first[1] === 0 || (second && second[1] === first[1])) return fallback;
  return first[0];
}
