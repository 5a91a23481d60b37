import en from "../../../../../locales/en/codingRationale.json" with { type: "json" };
import es from "../../../../../locales/es/codingRationale.json" with { type: "json" };
import fr from "../../../../../locales/fr/codingRationale.json" with { type: "json" };
import type { EvidenceSource, MissingDetail } from "../../model.ts";

// A suggestion's rationale in words a clinician reads (ADR 43): where the note says it, what it
// says, the code and its title, then what the code assumes — "Assessment says 'community acquired
// pneumonia' → J18.9 Pneumonia, unspecified organism (organism not documented)". Never stemmed
// tokens. The rationale is stored with the suggestion in the note's language, so the templates are
// read from locales/<lang>/codingRationale.json on the server (check-i18n keeps them in step).

export type RationaleLanguage = "en" | "fr" | "es";
const TEMPLATES = { en, fr, es } as const;
type Templates = typeof en;

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => values[k] ?? "");
}

export type RationaleNote = "history" | "family" | "allergy" | "learned" | "weak" | "subsumed" | "category" | "inclusion";

export interface RationaleInput {
  language: RationaleLanguage;
  source: EvidenceSource;
  /** The section title as written in the note ("Assessment", "Plan de traitement"), if any. */
  section: string | null;
  quotes: string[];
  code: string;
  title: string;
  notes: RationaleNote[];
  missing: MissingDetail[];
  /** category backoff: the category's code and title. */
  category?: { code: string; title: string };
  /** inclusion: the Tabular List inclusion term matched. */
  inclusionTerm?: string;
}

/**
 * What an "unspecified X" in the code's title leaves undocumented ("Pneumonia, unspecified organism"
 * → "organism"); null when the title has none or it is a side (laterality has its own note).
 */
export function undocumentedDetail(title: string): string | null {
  const m = /\bunspecified ([a-z][a-z -]*?)(?=,|\(|$)/i.exec(title);
  if (!m) return null;
  const detail = m[1]!.trim();
  if (/^(?:side|ear|eye|sides|ears|eyes|laterality)$/.test(detail) || detail.split(" ").length > 4) return null;
  return detail;
}

export function rationaleText(input: RationaleInput): string {
  const t: Templates = TEMPLATES[input.language] ?? en;
  const where = input.section ? fill(t.where.section, { section: input.section }) : t.where[input.source];
  const quoted = input.quotes.map((q) => `'${q.replace(/\s+/g, " ").trim()}'`);
  const quotes = quoted.length <= 1 ? (quoted[0] ?? "") : `${quoted.slice(0, -1).join(", ")} ${t.and} ${quoted.at(-1)}`;
  const head = fill(t.says, { where, quotes, code: input.code, title: input.title });
  const details: string[] = [];
  for (const note of input.notes) {
    if (note === "category" && input.category)
      details.push(fill(t.category, { category: input.category.code, title: input.category.title }));
    else if (note === "inclusion") details.push(fill(t.inclusion, { term: input.inclusionTerm ?? "" }));
    else if (note !== "category") details.push(t[note]);
  }
  const undocumented = undocumentedDetail(input.title);
  if (undocumented) details.push(fill(t.notDocumented, { detail: undocumented }));
  if (input.missing.includes("laterality")) details.push(t.laterality);
  if (input.missing.includes("episode_of_care")) details.push(t.episode);
  return details.length > 0 ? `${head} (${details.join("; ")})` : head;
}
