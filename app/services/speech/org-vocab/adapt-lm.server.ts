import { readFile, writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import { gunzip, gzip } from "node:zlib";
import { addPronunciation, formatDictionary, parseDictionary } from "#app/services/speech/clinical-lm/dictionary.ts";
import type { VocabularyTerm } from "./terms.ts";

/**
 * An organisation's copy of a pocketsphinx model (ADR 0032): the base dictionary plus the
 * practice's words, and the base ARPA with those words' unigrams raised and a bigram for each
 * word that usually comes before them in the practice's text. A text rewrite of the ARPA file
 * (no renormalisation): pocketsphinx takes the probabilities as given, and the few boosted
 * entries move far less mass than the backoff weights already leave unaccounted.
 */

/** Each term's unigram is raised to at least this share of the total boost, at most 1e-4 (log10 −4). */
const TOTAL_UNIGRAM_MASS = 0.02;
const MAX_UNIGRAM_LOG10 = -4;
/** log10 P(term | a word seen before it in the practice's text) ≈ 0.03. */
export const BIGRAM_LOG10 = -1.5;

export interface AdaptedModelStats {
  addedWords: number;
  boostedUnigrams: number;
  addedBigrams: number;
  boostedBigrams: number;
}

const gunzipAsync = promisify(gunzip);
const gzipAsync = promisify(gzip);

function requireIndex(text: string, marker: string): number {
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`not an ARPA model: no ${JSON.stringify(marker.trim())}`);
  return at;
}

/** The non-empty lines between two offsets (a section's entries). */
function sectionLines(text: string, from: number, to: number): string[] {
  return text
    .slice(from, to)
    .split("\n")
    .filter((l) => l.trim() !== "");
}

export async function adaptModel(input: {
  baseLm: string;
  baseDict: string;
  terms: readonly VocabularyTerm[];
  outLm: string;
  outDict: string;
}): Promise<AdaptedModelStats> {
  // The dictionary first: a word gets into the LM only if the decoder can pronounce it.
  const dict = parseDictionary(await readFile(input.baseDict, "utf8"));
  let addedWords = 0;
  for (const term of input.terms) {
    if (dict.has(term.word) || !term.phones?.length) continue;
    addPronunciation(dict, term.word, term.phones);
    addedWords += 1;
  }
  await writeFile(input.outDict, formatDictionary(dict));

  const terms = input.terms.filter((t) => dict.has(t.word));
  const unigramFloor = Math.min(MAX_UNIGRAM_LOG10, Math.log10(TOTAL_UNIGRAM_MASS / Math.max(1, terms.length)));
  const termWords = new Set(terms.map((t) => t.word));
  const wantedBigrams = new Set<string>();
  for (const t of terms) for (const before of t.before ?? []) if (dict.has(before)) wantedBigrams.add(`${before} ${t.word}`);

  // In memory rather than line by line through streams: ~50 MB of text, but a streamed rewrite of
  // 1.8M lines took over a minute on a busy 2-core machine; slicing one string takes seconds.
  const raw = await readFile(input.baseLm);
  const text = (input.baseLm.endsWith(".gz") ? await gunzipAsync(raw) : raw).toString("utf8");
  const at1 = requireIndex(text, "\n\\1-grams:\n");
  const at2 = requireIndex(text, "\n\\2-grams:\n");
  const at3 = text.indexOf("\n\\3-grams:\n");
  const atEnd = at3 >= 0 ? at3 : requireIndex(text, "\n\\end\\");

  const stats: AdaptedModelStats = { addedWords, boostedUnigrams: 0, addedBigrams: 0, boostedBigrams: 0 };
  const unigrams = new Set<string>();
  const unigramLines = sectionLines(text, at1 + "\n\\1-grams:\n".length, at2).map((line) => {
    const [lp = "", word = "", ...rest] = line.split("\t");
    unigrams.add(word);
    if (termWords.has(word) && Number(lp) < unigramFloor) {
      stats.boostedUnigrams += 1;
      return [unigramFloor.toFixed(4), word, ...rest].join("\t");
    }
    return line;
  });
  const newUnigrams = [...termWords].filter((w) => !unigrams.has(w)).sort();
  for (const w of newUnigrams) unigramLines.push(`${unigramFloor.toFixed(4)}\t${w}\t0.0000`);

  const existingBigrams = new Set<string>();
  const bigramLines = sectionLines(text, at2 + "\n\\2-grams:\n".length, atEnd).map((line) => {
    const tab = line.indexOf("\t");
    const tab2 = line.indexOf("\t", tab + 1);
    const key = line.slice(tab + 1, tab2 < 0 ? undefined : tab2);
    if (!wantedBigrams.has(key)) return line;
    existingBigrams.add(key);
    if (Number(line.slice(0, tab)) >= BIGRAM_LOG10) return line;
    stats.boostedBigrams += 1;
    return `${BIGRAM_LOG10.toFixed(4)}${line.slice(tab)}`;
  });
  // A bigram's history must be a unigram of the model (the new words are, once added above).
  const newBigrams = [...wantedBigrams]
    .filter((b) => !existingBigrams.has(b) && (unigrams.has(b.split(" ")[0] ?? "") || termWords.has(b.split(" ")[0] ?? "")))
    .sort();
  for (const b of newBigrams) bigramLines.push(`${BIGRAM_LOG10.toFixed(4)}\t${b}\t0.0000`);
  stats.addedBigrams = newBigrams.length;

  const header = text
    .slice(0, at1)
    .replace(/^ngram 1=(\d+)$/m, (_, n: string) => `ngram 1=${Number(n) + newUnigrams.length}`)
    .replace(/^ngram 2=(\d+)$/m, (_, n: string) => `ngram 2=${Number(n) + newBigrams.length}`);
  const out = [
    header,
    "\n\\1-grams:\n",
    unigramLines.join("\n"),
    "\n\n\\2-grams:\n",
    bigramLines.join("\n"),
    "\n",
    text.slice(atEnd),
  ].join("");
  await writeFile(input.outLm, input.outLm.endsWith(".gz") ? await gzipAsync(out, { level: 1 }) : out);
  return stats;
}
