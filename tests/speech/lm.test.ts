import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseDictionary } from "#app/services/speech/clinical-lm/dictionary.ts";
import { ARPABET_PHONES, ipaToArpabet } from "#app/services/speech/clinical-lm/ipa-arpabet.ts";
import { estimateTrigramModel, SENTENCE_END } from "#app/services/speech/clinical-lm/ngram.ts";

const lmDir = new URL("../../app/services/speech/clinical-lm/", import.meta.url);

describe("Kneser-Ney trigram estimator", () => {
  const corpus = [
    "bleeding on probing on the lower molar",
    "no bleeding on probing today",
    "probing depths on the upper molar",
    "the lower molar is sensitive",
  ].map((s) => s.split(" "));
  const model = estimateTrigramModel(corpus);
  const vocabulary = [...new Set([...corpus.flat(), SENTENCE_END])];

  it.each([["bleeding on"], ["on the"], ["the"], ["<s>"], ["molar is"]])(
    "gives a distribution that sums to 1 after '%s'",
    (history) => {
      const order = history.split(" ").length + 1;
      const total = vocabulary.reduce((sum, word) => sum + model.probability(order, `${history} ${word}`), 0);
      expect(total).toBeCloseTo(1, 6);
    },
  );

  it("prefers what the corpus says", () => {
    expect(model.probability(3, "bleeding on probing")).toBeGreaterThan(model.probability(3, "bleeding on molar"));
  });
});

describe("committed clinical model", () => {
  const arpa = readFileSync(new URL("clinical.arpa", lmDir), "utf8");
  const dict = parseDictionary(readFileSync(new URL("clinical.dict", lmDir), "utf8"));
  const unigrams = arpa
    .slice(arpa.indexOf("\\1-grams:"), arpa.indexOf("\\2-grams:"))
    .split("\n")
    .slice(1)
    .map((l) => l.split("\t")[1])
    .filter((w): w is string => Boolean(w));

  it("has a pronunciation made of acoustic-model phones for every word of the language model", () => {
    const words = unigrams.filter((w) => w !== "<s>" && w !== "</s>");
    expect(words.length).toBeGreaterThan(500);
    expect(words.filter((w) => !dict.has(w))).toEqual([]);
    for (const variants of dict.values())
      for (const phones of variants) for (const p of phones) expect(ARPABET_PHONES.has(p)).toBe(true);
  });

  it("knows the drug names the stock dictionary lacks", () => {
    for (const drug of ["lisinopril", "metformin", "atorvastatin", "apixaban", "chlorhexidine"])
      expect(dict.has(drug)).toBe(true);
  });
});

describe("IPA to ARPAbet", () => {
  it("maps espeak-ng's IPA, diphthongs and r-coloured vowels first", () => {
    expect(ipaToArpabet("mˈɛtfoːɹmˌɪn")).toEqual(["M", "EH", "T", "F", "AO", "R", "M", "IH", "N"]);
    expect(ipaToArpabet("pɹˈoʊbɪŋ")).toEqual(["P", "R", "OW", "B", "IH", "NG"]);
    expect(ipaToArpabet("tʃˈɛk")).toEqual(["CH", "EH", "K"]);
  });

  it("refuses a symbol it has no phone for instead of guessing", () => {
    expect(() => ipaToArpabet("ʁ")).toThrow(/no ARPAbet phone/);
  });
});
