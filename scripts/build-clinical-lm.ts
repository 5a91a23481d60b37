// Builds the clinical language model and dictionary pocketsphinx uses with ASR_POCKETSPHINX_MODEL=clinical
// (docs/speech.md "Clinical language model"). Inputs: the team-written corpus in
// app/services/speech/clinical-lm/corpus/*.txt, the hand-written pronunciations.dict, Debian's
// cmudict (pocketsphinx-en-us) and espeak-ng for words neither knows. Outputs, committed so the
// app never builds at run time: clinical.arpa (pocketsphinx reads ARPA directly; at ~200 KB it
// loads faster than sphinx_lm_convert's 840 KB DMP form) and clinical.dict beside the corpus,
// plus build-report.json.
//
//   node scripts/build-clinical-lm.ts [--check]     (--check: fail if the committed files are stale)
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  addPronunciation,
  type Dictionary,
  formatDictionary,
  parseDictionary,
} from "#app/services/speech/clinical-lm/dictionary.ts";
import { ARPABET_PHONES, ipaToArpabet } from "#app/services/speech/clinical-lm/ipa-arpabet.ts";
import { estimateTrigramModel, formatArpa } from "#app/services/speech/clinical-lm/ngram.ts";
import { normaliseText } from "#app/services/speech/text-normalise.ts";

const root = resolve(import.meta.dirname, "..");
const lmDir = join(root, "app/services/speech/clinical-lm");
const corpusDir = join(lmDir, "corpus");
const heldOutPaths = [join(root, "bench/asr/clinical-sentences.txt"), join(root, "bench/asr/clinical-dev-sentences.txt")];
const stockDictPath = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict";
const checkOnly = process.argv.includes("--check");

function readSentences(path: string): string[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"))
    .map(normaliseText)
    .filter(Boolean);
}

const corpusFiles = readdirSync(corpusDir)
  .filter((f) => f.endsWith(".txt"))
  .sort();
const corpus = corpusFiles.flatMap((f) => readSentences(join(corpusDir, f)));
const heldOut = heldOutPaths.filter((p) => existsSync(p)).flatMap(readSentences);

// The bench measures generalisation: a held-out sentence inside the corpus would flatter the model.
const corpusSet = new Set(corpus);
const leaked = heldOut.filter((s) => corpusSet.has(s));
if (leaked.length > 0) {
  console.error(`held-out sentences found in the corpus:\n  ${leaked.join("\n  ")}`);
  process.exit(1);
}

const model = estimateTrigramModel(corpus.map((s) => s.split(" ")));
const vocabulary = [...new Set(corpus.flatMap((s) => s.split(" ")))].sort();
const header = [
  "Murmur clinical trigram LM: interpolated Kneser-Ney, built by scripts/build-clinical-lm.ts",
  `from ${corpus.length} team-written sentences (${corpusFiles.join(", ")}). Do not edit by hand.`,
].join("\n");
const arpa = formatArpa(model, header);

if (!existsSync(stockDictPath)) {
  console.error(`missing ${stockDictPath}: apt-get install pocketsphinx-en-us`);
  process.exit(1);
}
const stock = parseDictionary(readFileSync(stockDictPath, "utf8"));
const handWritten = parseDictionary(readFileSync(join(lmDir, "pronunciations.dict"), "utf8"));

function espeakPronunciation(word: string): string[] {
  const ipa = execFileSync("espeak-ng", ["-q", "-v", "en-us", "--ipa", word], { encoding: "utf8" }).trim();
  return ipaToArpabet(ipa);
}

const dict: Dictionary = new Map();
const fromEspeak: string[] = [];
const fromHand: string[] = [];
for (const word of vocabulary) {
  for (const phones of handWritten.get(word) ?? []) addPronunciation(dict, word, phones);
  for (const phones of stock.get(word) ?? []) addPronunciation(dict, word, phones);
  if (handWritten.has(word)) fromHand.push(word);
  if (!stock.has(word)) {
    // Hand-written first (real clinicians' pronunciation), espeak-ng's reading as a variant.
    addPronunciation(dict, word, espeakPronunciation(word));
    if (!handWritten.has(word)) fromEspeak.push(word);
  }
}
for (const [word, variants] of dict) {
  for (const phones of variants) {
    const unknown = phones.filter((p) => !ARPABET_PHONES.has(p));
    if (unknown.length > 0) throw new Error(`${word}: phones ${unknown.join(",")} are not in the acoustic model`);
  }
}
const dictText = formatDictionary(dict);

const heldOutWords = heldOut.flatMap((s) => s.split(" "));
const vocabSet = new Set(vocabulary);
const oov = heldOutWords.filter((w) => !vocabSet.has(w));
const report = {
  sentences: corpus.length,
  files: corpusFiles,
  vocabulary: vocabulary.length,
  ngrams: model.stats.counts,
  discounts: model.stats.discounts,
  dictionaryEntries: [...dict.values()].reduce((n, v) => n + v.length, 0),
  handWritten: fromHand.length,
  espeakOnly: fromEspeak,
  heldOut: {
    sentences: heldOut.length,
    words: heldOutWords.length,
    oovRate: Number((oov.length / Math.max(1, heldOutWords.length)).toFixed(4)),
    oov: [...new Set(oov)].sort(),
  },
};
const reportText = `${JSON.stringify(report, null, 2)}\n`;

const outputs: [string, string][] = [
  [join(lmDir, "clinical.arpa"), arpa],
  [join(lmDir, "clinical.dict"), dictText],
  [join(lmDir, "build-report.json"), reportText],
];

if (checkOnly) {
  // The report is compared as data: the repository's formatter may re-wrap the JSON.
  const same = (path: string, text: string) =>
    path.endsWith(".json")
      ? JSON.stringify(JSON.parse(readFileSync(path, "utf8"))) === JSON.stringify(JSON.parse(text))
      : readFileSync(path, "utf8") === text;
  const stale = outputs.filter(([path, text]) => !existsSync(path) || !same(path, text)).map(([p]) => p);
  if (stale.length > 0) {
    console.error(`stale clinical LM files (run node scripts/build-clinical-lm.ts): ${stale.join(", ")}`);
    process.exit(1);
  }
  console.log("clinical LM files are up to date");
  process.exit(0);
}

for (const [path, text] of outputs) writeFileSync(path, text);
// Leave the report as the repository's formatter wants it, so `biome check` stays clean after a rebuild.
execFileSync(join(root, "node_modules/.bin/biome"), ["format", "--write", join(lmDir, "build-report.json")], { stdio: "ignore" });
console.log(
  `clinical LM: ${report.sentences} sentences, ${report.vocabulary} words, n-grams ${report.ngrams.join("/")}, ` +
    `${report.espeakOnly.length} espeak-ng pronunciations, held-out OOV ${(report.heldOut.oovRate * 100).toFixed(1)}%`,
);
