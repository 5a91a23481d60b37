import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { vocabularyFormSchema } from "#app/routes/app/settings/vocabulary-schemas.ts";
import { adaptModel, BIGRAM_LOG10 } from "#app/services/speech/org-vocab/adapt-lm.server.ts";
import { pronounce } from "#app/services/speech/org-vocab/g2p.server.ts";
import { type BaseVocabulary, jsonStrings, selectTerms, spokenWords } from "#app/services/speech/org-vocab/terms.ts";

// ADR 0032's pure parts: which words are terms, espeak-ng → ARPAbet pronunciations, the owner's
// list validation and the ARPA/dictionary rewrite (on a small model here; the real one in
// org-vocab-model.test.ts).

const base: BaseVocabulary = (() => {
  const unigrams = new Map<string, number>([
    ["doctor", -2.5],
    ["take", -2.8],
    ["the", -1.4],
    ["cough", -3.9],
    ["apixaban", -4.82],
    ["daily", -3.5],
    ["better", -3.2],
    ["is", -1.9],
  ]);
  return { has: (w) => unigrams.has(w), unigram: (w) => unigrams.get(w) };
})();

describe("selectTerms", () => {
  it("keeps custom words and clinicians' names, and only rare or unknown words of templates and notes", () => {
    const terms = selectTerms(
      {
        custom: ["Zenvaxor"],
        clinicianNames: ["Dr. Amara Okafor", "Núñez-O'Brien"],
        templateTexts: ["Take the tromadexil daily"],
        noteTexts: ["Take apixaban daily. The cough is better.", "take apixaban"],
      },
      base,
    );
    const byWord = new Map(terms.map((t) => [t.word, t]));
    expect([...byWord.keys()]).toEqual(["zenvaxor", "amara", "nunez", "o'brien", "okafor", "tromadexil", "apixaban"]);
    expect(byWord.get("okafor")?.before).toEqual(["doctor"]);
    expect(byWord.get("apixaban")).toMatchObject({ source: "note", before: ["take"] });
    expect(byWord.get("tromadexil")).toMatchObject({ source: "template", before: ["the"] });
    expect(byWord.has("cough")).toBe(false);
    expect(byWord.has("doctor")).toBe(false);
  });

  it("spells words as the decoder does: accents dropped, digits and punctuation out", () => {
    expect(spokenWords("Dr. Zoë Müller-Lüdenscheidt, 20 mg")).toEqual([
      "doctor",
      "zoe",
      "muller",
      "ludenscheidt",
      "twenty",
      "milligrams",
    ]);
    expect(jsonStrings([{ key: "plan", text: "Start x", n: 3, sub: ["a"] }])).toEqual(["plan", "Start x", "a"]);
  });
});

describe("pronunciations from espeak-ng", () => {
  it("maps espeak-ng's IPA to the acoustic model's ARPAbet, in one process for many words", async () => {
    const phones = await pronounce(["zenvaxor", "okafor", "quistgaard", "lindqvist", "bad word!"]);
    expect(phones.get("zenvaxor")).toEqual(["Z", "EH", "N", "V", "AE", "K", "S", "ER"]);
    expect(phones.get("okafor")).toEqual(["AA", "K", "AE", "F", "ER"]);
    expect(phones.get("lindqvist")?.slice(0, 4)).toEqual(["L", "IH", "N", "D"]);
    expect(phones.get("quistgaard")?.[0]).toBe("K");
    // Only decoder spellings are pronounced.
    expect(phones.has("bad word!")).toBe(false);
  });
});

describe("the owner's word list", () => {
  it("takes one word or name per line, trimmed and de-duplicated", () => {
    const parsed = vocabularyFormSchema.parse({
      intent: "vocabulary",
      terms: " Zenvaxor \r\n\nDr  Okafor\nZenvaxor\nO'Brien-Núñez",
    });
    expect(parsed.terms).toEqual(["Zenvaxor", "Dr Okafor", "O'Brien-Núñez"]);
  });

  it("refuses digits, markup and over-long or too many lines with stable codes", () => {
    const code = (terms: string) => vocabularyFormSchema.safeParse({ intent: "vocabulary", terms }).error?.issues[0]?.message;
    expect(code("<script>")).toBe("vocabulary_invalid_term");
    expect(code("drug 20")).toBe("vocabulary_invalid_term");
    expect(code("a".repeat(61))).toBe("vocabulary_invalid_term");
    expect(code(Array.from({ length: 501 }, (_, i) => `word${toLetters(i)}`).join("\n"))).toBe("vocabulary_too_many");
  });
});

function toLetters(n: number): string {
  let s = "";
  let v = n;
  do {
    s = String.fromCharCode(97 + (v % 26)) + s;
    v = Math.floor(v / 26);
  } while (v > 0);
  return s;
}

const SMALL_ARPA = `\\data\\
ngram 1=5
ngram 2=3
ngram 3=1

\\1-grams:
-99.0000\t<s>\t-0.5000
-1.0000\t</s>\t0.0000
-1.2000\ttake\t-0.3000
-6.0000\tapixaban\t-0.2000
-1.5000\tdoctor\t-0.3000

\\2-grams:
-0.5000\t<s> take\t0.0000
-3.0000\ttake apixaban\t0.0000
-0.3000\tapixaban </s>\t0.0000

\\3-grams:
-0.1000\t<s> take apixaban

\\end\\
`;

describe("adaptModel", () => {
  it("adds missing words to the dictionary and the LM, raises rare unigrams and adds or raises bigrams", async () => {
    const dir = await mkdtemp(join(tmpdir(), "murmur-adapt-"));
    try {
      await writeFile(join(dir, "base.arpa"), SMALL_ARPA);
      await writeFile(join(dir, "base.dict"), "take T EY K\napixaban AH P IH K S AH B AE N\ndoctor D AA K T ER\n");
      const stats = await adaptModel({
        baseLm: join(dir, "base.arpa"),
        baseDict: join(dir, "base.dict"),
        terms: [
          { word: "apixaban", source: "note", before: ["take"] },
          { word: "okafor", source: "clinician", phones: ["AA", "K", "AE", "F", "ER"], before: ["doctor"] },
          // No pronunciation and not in the dictionary: left out of both files.
          { word: "unsayable", source: "custom" },
        ],
        outLm: join(dir, "org.arpa.gz"),
        outDict: join(dir, "org.dict"),
      });
      expect(stats).toEqual({ addedWords: 1, boostedUnigrams: 1, addedBigrams: 1, boostedBigrams: 1 });
      const dict = await readFile(join(dir, "org.dict"), "utf8");
      expect(dict).toContain("okafor AA K AE F ER\n");
      expect(dict).not.toContain("unsayable");
      const lm = gunzipSync(await readFile(join(dir, "org.arpa.gz"))).toString("utf8");
      expect(lm).toContain("ngram 1=6\nngram 2=4\nngram 3=1");
      expect(lm).toMatch(/\n-4\.0000\tapixaban\t-0\.2000\n/);
      expect(lm).toMatch(/\n-4\.0000\tokafor\t0\.0000\n\n\\2-grams:/);
      expect(lm).toContain(`\n${BIGRAM_LOG10.toFixed(4)}\ttake apixaban\t0.0000\n`);
      expect(lm).toContain(`\n${BIGRAM_LOG10.toFixed(4)}\tdoctor okafor\t0.0000\n\n\\3-grams:`);
      expect(lm).toContain("\\3-grams:\n-0.1000\t<s> take apixaban\n\n\\end\\");
      expect(lm).not.toContain("unsayable");
      // Every section's entry count matches its header (pocketsphinx checks it).
      const counts = [...lm.matchAll(/^ngram (\d)=(\d+)$/gm)].map((m) => Number(m[2]));
      const sections = lm
        .split(/\\\d-grams:\n/)
        .slice(1)
        .map((s) => s.split("\n\n")[0]?.split("\n").filter(Boolean).length);
      expect(sections).toEqual(counts);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
