import type { Citation } from "#app/services/rag/model.ts";
import { ASSISTANT } from "./constants.ts";

// SPEC §2 "Citation chips": the first six shown, the rest behind '+N more' grouped by
// 'visit name · date'. Pure (the date formatter is passed in) so the rule is unit-tested.

export interface NumberedCitation {
  citation: Citation;
  /** The answer's [n] marker this chip matches (1-based, relevance order). */
  n: number;
}

export interface CitationGroups {
  shown: NumberedCitation[];
  more: { label: string; items: NumberedCitation[] }[];
  moreCount: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** 'visit name · date' (date formatted by the caller); just the name when the date is not a day. */
export function groupLabel(citation: Citation, formatDay: (day: string) => string): string {
  const name = citation.source.visit_name || citation.title;
  return DAY.test(citation.created_at) ? `${name} · ${formatDay(citation.created_at)}` : name;
}

export function groupCitations(
  citations: readonly Citation[],
  formatDay: (day: string) => string,
  visible: number = ASSISTANT.visibleChips,
): CitationGroups {
  const numbered = citations.map((citation, i) => ({ citation, n: i + 1 }));
  const rest = numbered.slice(visible);
  const groups = new Map<string, NumberedCitation[]>();
  for (const item of rest) {
    const label = groupLabel(item.citation, formatDay);
    groups.set(label, [...(groups.get(label) ?? []), item]);
  }
  return {
    shown: numbered.slice(0, visible),
    more: [...groups.entries()].map(([label, items]) => ({ label, items })),
    moreCount: rest.length,
  };
}
