import { existsSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { parseDictionary } from "#app/services/speech/clinical-lm/dictionary.ts";
import { mixModels } from "#app/services/speech/clinical-lm/mix.ts";
import { estimateTrigramModel } from "#app/services/speech/clinical-lm/ngram.ts";
import { readTrieLm } from "#app/services/speech/clinical-lm/sphinx-trie.ts";
import { dialogueRole } from "../../bench/asr/datasets.ts";

// Issue 15 "A much stronger embedded language model": Debian's binary LM read in TypeScript,
// two models interpolated into one backoff model, and the committed conversation model.

const STOCK_LM = "/usr/share/pocketsphinx/model/en-us/en-us.lm.bin";
const lmDir = new URL("../../app/services/speech/conversation-lm/", import.meta.url);

describe("sphinxbase trie LM reader", () => {
  it.skipIf(!existsSync(STOCK_LM))(
    "reads Debian's en-us.lm.bin: counts, words, and distributions that sum to 1",
    () => {
      const lm = readTrieLm(readFileSync(STOCK_LM));
      expect([lm.words.length, lm.bi.w1.length, lm.tri.w1.length]).toEqual([72547, 2051547, 1669625]);
      expect(lm.words).toContain("patient");
      // After a history, its listed bigrams plus the backoff share of the other words' unigram
      // probabilities sum to one; a misread bit field, a swapped probability/backoff or n-grams
      // read in the wrong direction would not.
      for (const history of ["the", "<s>", "patient"]) {
        const h = lm.words.indexOf(history);
        let listed = 0;
        let listedUnigrams = 0;
        for (let i = 0; i < lm.bi.w1.length; i++) {
          if (lm.bi.w1[i] !== h) continue;
          listed += 10 ** (lm.bi.prob[i] as number);
          listedUnigrams += 10 ** (lm.uniProb[lm.bi.w2[i] as number] as number);
        }
        expect(listed + 10 ** (lm.uniBow[h] as number) * (1 - listedUnigrams)).toBeCloseTo(1, 3);
      }
    },
    60_000,
  );
});

describe("mixing two models", () => {
  const a = estimateTrigramModel(["the patient has a cough", "the patient is well"].map((s) => s.split(" ")));
  const b = estimateTrigramModel(["the weather is fine", "the cough is dry"].map((s) => s.split(" ")));
  const vocabulary = ["the", "patient", "has", "a", "cough", "is", "well", "weather", "fine", "dry", "</s>"];
  const cond = (m: typeof a) => (words: readonly string[]) => m.probability(words.length, words.join(" "));
  const [unigrams = [], bigrams = [], trigrams = []] = mixModels({
    vocabulary,
    bigrams: ["<s> the", "the patient", "the weather", "is well", "patient is"],
    trigrams: ["<s> the patient", "the patient is"],
    a: cond(a),
    b: cond(b),
    lambda: 0.7,
  });
  const row = (rows: typeof unigrams, gram: string) => rows.find((r) => r.gram === gram);
  /** P(word | history) in the written backoff model. */
  const p = (history: string[], word: string): number => {
    const tri = history.length === 2 ? row(trigrams, `${history.join(" ")} ${word}`) : undefined;
    if (tri) return 10 ** tri.logp;
    const last = history.at(-1);
    const back = history.length === 2 ? (row(bigrams, history.join(" "))?.logBow ?? 0) : 0;
    const bi = last ? row(bigrams, `${last} ${word}`) : undefined;
    const lower = bi
      ? 10 ** bi.logp
      : 10 ** ((last ? (row(unigrams, last)?.logBow ?? 0) : 0) + (row(unigrams, word)?.logp ?? -99));
    return 10 ** back * lower;
  };

  it.each([[["the"]], [["<s>", "the"]], [["the", "patient"]], [["is"]]])(
    "gives distributions that sum to 1 after %j",
    (history) => {
      expect(vocabulary.reduce((sum, w) => sum + p(history, w), 0)).toBeCloseTo(1, 6);
    },
  );

  it("lists each n-gram with λ·P_a + (1 − λ)·P_b", () => {
    const expected = 0.7 * cond(a)(["the", "patient"]) + 0.3 * cond(b)(["the", "patient"]);
    expect(10 ** (row(bigrams, "the patient")?.logp ?? 0)).toBeCloseTo(expected, 3);
  });
});

describe("committed conversation model", () => {
  const arpa = gunzipSync(readFileSync(new URL("conversation.arpa.gz", lmDir))).toString("utf8");
  const dict = parseDictionary(readFileSync(new URL("conversation.dict", lmDir), "utf8"));
  const report = JSON.parse(readFileSync(new URL("build-report.json", lmDir), "utf8"));

  it("has a pronunciation for every word it can predict", () => {
    const unigrams = arpa
      .slice(arpa.indexOf("\\1-grams:"), arpa.indexOf("\\2-grams:"))
      .split("\n")
      .slice(1)
      .map((l) => l.split("\t")[1])
      .filter((w): w is string => Boolean(w) && w !== "<s>" && w !== "</s>");
    expect(unigrams.length).toBeGreaterThan(20_000);
    expect(unigrams.filter((w) => !dict.has(w))).toEqual([]);
  });

  it("was tuned on held-out train dialogues only, never on the bench's evaluation split", () => {
    const tuning: string[] = report.tuning.dialogues;
    expect(tuning.length).toBeGreaterThan(50);
    for (const label of tuning) {
      const [corpus, split, id] = label.split("/") as ["aci-bench" | "mts-dialog", "train" | "valid", string];
      expect(dialogueRole(corpus, split, id)).toBe("tune");
    }
    expect(dialogueRole("mts-dialog", "valid", "5")).toBe("eval");
  });
});
