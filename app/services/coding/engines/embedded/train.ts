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

export function trainLexicon(docs: CodedDocument[], table: CodeTable): Omit<LexiconFile, "ranker"> {
  const df = new Map<string, number>();
  const co = new Map<string, Map<string, number>>();
  const codeDocs = new Map<string, number>();
  for (const doc of docs) {
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
    const codes = [...(co.get(phrase) ?? [])]
      .filter(([c, k]) => k >= MIN_CO && k / n >= MIN_P && k / n / ((codeDocs.get(c) ?? 1) / docs.length) >= MIN_LIFT)
      .sort((a, b) => b[1] - a[1])
      .slice(0, MAX_CODES_PER_PHRASE)
      .map(([c, k]) => [c, Math.round((k / n) * 1000) / 1000, k] as [string, number, number]);
    if (codes.length > 0) lexicon.push([phrase, codes]);
  }
  lexicon.sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const prior = [...codeDocs].filter(([, k]) => k >= MIN_CO).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  return { source: "CodiEsp train (CC BY 4.0), see NOTICE", documents: docs.length, minP: MIN_P, lexicon, prior };
}
