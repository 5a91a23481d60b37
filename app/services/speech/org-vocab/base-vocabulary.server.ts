import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import { parseDictionary } from "#app/services/speech/clinical-lm/dictionary.ts";
import { resolveLanguageModel } from "#app/services/speech/pocketsphinx.server.ts";
import type { BaseVocabulary } from "./terms.ts";

const gunzipAsync = promisify(gunzip);

/**
 * The default embedded model's words and unigram probabilities, which the refresh job compares a
 * practice's text against (a word it lacks or rates rare is a term). Read once per process: the
 * committed model only changes with a deployment.
 */
let cached: Promise<BaseVocabulary> | null = null;

export function defaultBaseVocabulary(): Promise<BaseVocabulary> {
  cached ??= loadBaseVocabulary(resolveLanguageModel("conversation")).catch((error: unknown) => {
    cached = null;
    throw error;
  });
  return cached;
}

export async function loadBaseVocabulary(model: { lm: string; dict: string }): Promise<BaseVocabulary> {
  const dict = parseDictionary(await readFile(model.dict, "utf8"));
  const raw = await readFile(model.lm);
  const text = (model.lm.endsWith(".gz") ? await gunzipAsync(raw) : raw).toString("utf8");
  const from = text.indexOf("\\1-grams:\n");
  const to = text.indexOf("\\2-grams:", from);
  const unigrams = new Map<string, number>();
  if (from >= 0) {
    for (const line of text
      .slice(from, to < 0 ? undefined : to)
      .split("\n")
      .slice(1)) {
      const [lp, word] = line.split("\t");
      if (word) unigrams.set(word, Number(lp));
    }
  }
  return { has: (word) => dict.has(word) && unigrams.has(word), unigram: (word) => unigrams.get(word) };
}
