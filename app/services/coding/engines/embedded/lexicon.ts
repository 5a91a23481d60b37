import type { CodeTable } from "../../codes/table.ts";
import type { Term } from "./title-index.ts";

export interface LexiconFile {
  source: string;
  documents: number;
  minP: number;
  /** [phrase, [[code, P(code | phrase), documents], …]] */
  lexicon: Array<[string, Array<[string, number, number]>]>;
}

/** Weight of a learned phrase match relative to a title match (tuned on a held-out part of train). */
export const LEARNED_WEIGHT = 8;

/** phrase → the terms it votes for; codes not billable in the shipped table are dropped. */
export function learnedTerms(file: LexiconFile, table: CodeTable, weight = LEARNED_WEIGHT): Map<string, Term[]> {
  const out = new Map<string, Term[]>();
  for (const [phrase, codes] of file.lexicon) {
    const terms: Term[] = [];
    for (const [code, p, n] of codes) {
      if (!table.get(code)?.billable) continue;
      terms.push({
        key: code,
        required: phrase.split(" "),
        weight: weight * p * Math.min(1, Math.log2(1 + n) / 3),
        laterality: null,
        episode: null,
        fallback: 1,
        group: `L|${code}|${phrase}`,
      });
    }
    if (terms.length > 0) out.set(phrase, terms);
  }
  return out;
}
