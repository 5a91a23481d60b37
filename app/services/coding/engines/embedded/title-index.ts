// The title index of the embedded engine: every billable ICD-10-CM code's official title reduced to
// the words a text must contain for it (stemmed, no stop words, no nonessential "(…)" modifiers)
// plus its "detail" words — laterality and episode of care — which choose among sibling codes
// instead of being required (docs/coding.md "Embedded engine").
import type { CodeTable } from "../../codes/table.ts";
import { isStopWord, stem, words } from "../../text.ts";

export const LATERALITY = new Set(["right", "left", "bilateral"]);
export const EPISODE = new Set(["initial", "subsequent", "sequela", "encounter"]);
// Words of titles that describe the default case: a text never says them, so they are not required.
const DEFAULT_WORDS = new Set(
  [
    "unspecified",
    "without",
    "complication",
    "nos",
    "other",
    "mention",
    "elsewhere",
    "classified",
    "routine",
    "healing",
    "closed",
  ].map(stem),
);

export interface Term {
  key: string;
  required: string[];
  /** Required words weighted by rarity (sum of idf). */
  weight: number;
  laterality: "right" | "left" | "bilateral" | null;
  episode: "initial" | "subsequent" | "sequela" | null;
  /** The title says "unspecified" (or "other"): the default variant when the text gives no more. */
  fallback: number;
  /** Siblings: same category and the same required words, differing by detail only. */
  group: string;
  /** Learned-phrase terms: P(code | phrase) in training. */
  p?: number;
  /** A Tabular List inclusion term of the code (as printed), matched like a title (ADR 43). */
  inclusionTerm?: string;
  /** Learned-phrase terms: the phrase shares a naming word with the code's title (lexicon.ts). */
  related?: boolean;
}

export interface TitleIndex {
  terms: Term[];
  postings: Map<string, number[]>;
  idf: Map<string, number>;
  groups: Map<string, number[]>;
}

function requiredWords(title: string): string[] {
  // "(acute)" is a nonessential modifier; "right ear", "unspecified eye" are laterality, not a required site word.
  const core = title
    .replace(/\([^)]*\)/g, " ")
    .replace(/\b(right|left|bilateral|unspecified) (?:ears?|eyes?|side|sides)\b/gi, "$1");
  const ws = words(core).filter((w) => !isStopWord(w) && !LATERALITY.has(w) && !EPISODE.has(w));
  let req = ws.filter((w) => !DEFAULT_WORDS.has(w));
  if (req.length === 0) req = ws;
  return [...new Set(req)];
}

function eitherWord(title: string): string[] {
  const core = title
    .replace(/\([^)]*\)/g, " ")
    .split(",")[0]!
    .trim();
  const m = /^([\p{L}-]+) and ([\p{L}-]+)$/u.exec(core);
  if (!m) return [];
  return [m[1]!, m[2]!].flatMap((w) => words(w)).filter((w) => !isStopWord(w) && w.length > 3);
}

export function buildTitleIndex(table: CodeTable): TitleIndex {
  return buildTitleIndexOf(table.entries.filter((e) => e.billable));
}

/** A title index over any (key, title) pairs: the billable codes, or category titles (backoff.ts). */
export function buildTitleIndexOf(billable: Array<{ key: string; title: string; inclusionTerm?: boolean }>): TitleIndex {
  const df = new Map<string, number>();
  const reqs = billable.map((e) => requiredWords(e.title));
  for (const r of reqs) for (const w of r) df.set(w, (df.get(w) ?? 0) + 1);
  const n = billable.length;
  const idf = new Map<string, number>();
  for (const [w, d] of df) idf.set(w, Math.log(1 + n / d));
  const terms: Term[] = [];
  const postings = new Map<string, number[]>();
  const groups = new Map<string, number[]>();
  billable.forEach((e, i) => {
    const required = reqs[i]!;
    const lower = ` ${e.title.toLowerCase()} `;
    const laterality = /\bbilateral\b/.test(lower)
      ? "bilateral"
      : /\bright\b/.test(lower)
        ? "right"
        : /\bleft\b/.test(lower)
          ? "left"
          : null;
    const episode = /\binitial encounter\b/.test(lower)
      ? "initial"
      : /\bsubsequent encounter\b/.test(lower)
        ? "subsequent"
        : /\bsequela\b/.test(lower)
          ? "sequela"
          : null;
    const group = `${e.key.slice(0, 3)}|${[...required].sort().join(" ")}`;
    const id = terms.length;
    const fallback = /\bunspecified\b(?! (?:ear|eye|side))/.test(lower) ? 0 : /\bother\b/.test(lower) ? 2 : 1;
    terms.push({
      key: e.key,
      required,
      weight: required.reduce((s, w) => s + (idf.get(w) ?? 0), 0),
      laterality,
      episode,
      fallback,
      group,
      ...(e.inclusionTerm ? { inclusionTerm: e.title } : {}),
    });
    let g = groups.get(group);
    if (!g) {
      g = [];
      groups.set(group, g);
    }
    g.push(id);
    for (const w of required) {
      let p = postings.get(w);
      if (!p) {
        p = [];
        postings.set(w, p);
      }
      p.push(id);
    }
    // "Syncope and collapse", "Dizziness and giddiness": a two-word "X and Y" title is coded for either word.
    for (const side of eitherWord(e.title)) {
      const altGroup = `${e.key.slice(0, 3)}|${side}`;
      const altId = terms.length;
      terms.push({ ...terms[id]!, required: [side], weight: idf.get(side) ?? Math.log(1 + n), group: altGroup });
      let ag = groups.get(altGroup);
      if (!ag) {
        ag = [];
        groups.set(altGroup, ag);
      }
      ag.push(altId);
      let p = postings.get(side);
      if (!p) {
        p = [];
        postings.set(side, p);
      }
      p.push(altId);
    }
  });
  return { terms, postings, idf, groups };
}
