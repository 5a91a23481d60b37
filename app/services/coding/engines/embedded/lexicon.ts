import { expandAbbreviation } from "../../abbreviations.ts";
import type { CodeTable } from "../../codes/table.ts";
import { words } from "../../text.ts";
import type { LearnedRanking } from "./engine.ts";
import type { RankerModel } from "./ranker.ts";
import type { Term } from "./title-index.ts";

export interface LexiconFile {
  source: string;
  documents: number;
  minP: number;
  /**
   * [phrase, [[code, P(code | phrase), documents, weak?], …]]; weak (1): below the confident
   * thresholds (train.ts), a tail candidate only.
   */
  lexicon: Array<[string, Array<[string, number, number, 1?]>]>;
  /** [code, training documents coded with it] (codes coded at least twice). */
  prior: Array<[string, number]>;
  /** [3-character category, training documents coded with any code in it] (at least twice). */
  categoryPrior?: Array<[string, number]>;
  /** The learned ranking (ranker.ts), fitted with cross-fitting on the same training split. */
  ranker?: RankerModel;
  /** The tail's ranking (engine.ts), fitted the same way on candidates without a confident match. */
  tailRanker?: RankerModel;
}

/** The learned ranking of a lexicon file (without a ranker: the code frequencies only). */
export function learnedRanking(file: LexiconFile, withRanker = true): LearnedRanking {
  return {
    ...(withRanker && file.ranker ? { ranker: file.ranker } : {}),
    ...(withRanker && file.tailRanker ? { tailRanker: file.tailRanker } : {}),
    prior: new Map((file.prior ?? []).map(([c, n]) => [c, n / file.documents])),
    categoryPrior: new Map((file.categoryPrior ?? []).map(([c, n]) => [c, n / file.documents])),
  };
}

/** Weight of a learned phrase match relative to a title match (tuned on a held-out part of train). */
export const LEARNED_WEIGHT = 8;

/**
 * A learned phrase stands for a code only when it shares a word with the code's title (abbreviations
 * and synonyms expanded) or predicts it strongly: co-occurrence alone would let "cough" suggest
 * pneumonia, which a coder must never see as evidence.
 */
export const MIN_P_UNRELATED = 0.6;

/**
 * Words that qualify a condition rather than name it: sharing only these with a title is no link
 * ("acquired" in "community acquired pneumonia" says nothing about "Acquired absence of …").
 */
const MODIFIERS = new Set(
  words(
    "acquired community hospital chronic acute subacute severe mild moderate primary secondary left right bilateral upper lower type stage disease disorder syndrome condition history status patient",
  ),
);

export function related(phrase: string, title: string): boolean {
  const titleWords = new Set(words(title).filter((w) => !MODIFIERS.has(w)));
  return phrase
    .split(" ")
    .some((w) => titleWords.has(w) || (expandAbbreviation(w) ?? "").split(/[\s-]+/).some((x) => titleWords.has(x)));
}

/**
 * An unrelated pair must also have been seen in this many training documents (ADR 43): two case
 * reports that happened to mention pneumonia and HIV together are no synonym. Chosen on held-out
 * train (last 100): 2 → 3 raised P@5 0.535 → 0.558 at equal MAP; 4 and 6 lost MAP.
 */
export const MIN_DOCS_UNRELATED = 3;

/**
 * phrase → the terms it votes for; codes not billable in the shipped table are dropped. `weak`: the
 * entries below the confident thresholds instead (tail candidates), under the same relatedness rule.
 */
export function learnedTerms(file: LexiconFile, table: CodeTable, weight = LEARNED_WEIGHT, weak = false): Map<string, Term[]> {
  const out = new Map<string, Term[]>();
  for (const [phrase, codes] of file.lexicon) {
    const terms: Term[] = [];
    for (const [code, p, n, isWeak] of codes) {
      if ((isWeak === 1) !== weak) continue;
      const entry = table.get(code);
      if (!entry?.billable) continue;
      const isRelated = related(phrase, entry.title);
      if (!isRelated && (p < MIN_P_UNRELATED || n < MIN_DOCS_UNRELATED)) continue;
      terms.push({
        key: code,
        required: phrase.split(" "),
        weight: weight * p * Math.min(1, Math.log2(1 + n) / 3),
        laterality: null,
        episode: null,
        fallback: 1,
        group: `L|${code}|${phrase}`,
        p,
        related: isRelated,
      });
    }
    if (terms.length > 0) out.set(phrase, terms);
  }
  return out;
}
