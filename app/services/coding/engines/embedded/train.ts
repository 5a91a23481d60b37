// Training of the embedded engine's learned lexicon (phrase → code statistics) from coded documents.
// Pure: the caller supplies the documents (scripts/train-coding-lexicon.ts reads the CodiEsp train
// split; the ranker's cross-fitting calls this once per fold). Only statistics come out, never text.
import type { CodeTable } from "../../codes/table.ts";
import type { LexiconFile } from "./lexicon.ts";
import { phrasesOf } from "./phrases.ts";

export interface CodedDocument {
  text: string;
  /** Dotless, upper case. */
  gold: string[];
}

const MIN_DOCS = 2;
const MIN_CO = 2;
const MIN_P = 0.2;
// A phrase must say more about a code than the code's frequency does ("patient was admitted" is not evidence of pain).
const MIN_LIFT = 3;
const MAX_CODES_PER_PHRASE = 5;
// Weak entries (tail candidates only, engine.ts): seen together at least twice, below the thresholds above.
const WEAK_MIN_P = 0.1;
const WEAK_MIN_LIFT = 2;
const WEAK_MAX_CODES = 5;

export function trainLexicon(docs: CodedDocument[], table: CodeTable): Omit<LexiconFile, "ranker"> {
  const df = new Map<string, number>();
  const co = new Map<string, Map<string, number>>();
  const codeDocs = new Map<string, number>();
  const categoryDocs = new Map<string, number>();
  for (const doc of docs) {
    for (const c of new Set(doc.gold.map((g) => g.slice(0, 3)))) categoryDocs.set(c, (categoryDocs.get(c) ?? 0) + 1);
    const gold = [...new Set(doc.gold.filter((c) => table.get(c)?.billable))];
    for (const c of gold) codeDocs.set(c, (codeDocs.get(c) ?? 0) + 1);
    for (const phrase of new Set(phrasesOf(doc.text))) {
      df.set(phrase, (df.get(phrase) ?? 0) + 1);
      let m = co.get(phrase);
      if (!m) {
        m = new Map();
        co.set(phrase, m);
      }
      for (const c of gold) m.set(c, (m.get(c) ?? 0) + 1);
    }
  }
  const lexicon: LexiconFile["lexicon"] = [];
  for (const [phrase, n] of df) {
    if (n < MIN_DOCS) continue;
    const sorted = [...(co.get(phrase) ?? [])].filter(([, k]) => k >= MIN_CO).sort((a, b) => b[1] - a[1]);
    const lift = (c: string, k: number) => k / n / ((codeDocs.get(c) ?? 1) / docs.length);
    const confident = sorted.filter(([c, k]) => k / n >= MIN_P && lift(c, k) >= MIN_LIFT).slice(0, MAX_CODES_PER_PHRASE);
    const weak = sorted
      .filter(([c, k]) => !confident.some(([x]) => x === c) && k / n >= WEAK_MIN_P && lift(c, k) >= WEAK_MIN_LIFT)
      .slice(0, WEAK_MAX_CODES);
    const p = (k: number) => Math.round((k / n) * 1000) / 1000;
    const codes: Array<[string, number, number, 1?]> = [
      ...confident.map(([c, k]) => [c, p(k), k] as [string, number, number]),
      ...weak.map(([c, k]) => [c, p(k), k, 1] as [string, number, number, 1]),
    ];
    if (codes.length > 0) lexicon.push([phrase, codes]);
  }
  lexicon.sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const prior = [...codeDocs].filter(([, k]) => k >= MIN_CO).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const categoryPrior = [...categoryDocs].filter(([, k]) => k >= MIN_CO).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  return { source: "CodiEsp train (CC BY 4.0), see NOTICE", documents: docs.length, minP: MIN_P, lexicon, prior, categoryPrior };
}
