// Builds the conversation language model and dictionary pocketsphinx uses with
// ASR_POCKETSPHINX_MODEL=conversation (docs/speech.md "Conversation language model"):
//   - a clinical-conversation trigram (interpolated Kneser-Ney) from MTS-Dialog train (+ its
//     back-translations) and ACI-Bench train dialogues (CC BY 4.0: the model ships, their text does
//     not — NOTICE.md) plus the team's clinical corpus;
//   - Debian's general English en-us.lm.bin, read with clinical-lm/sphinx-trie.ts;
//   - linearly interpolated (λ by EM on the held-out tuning dialogues, bench/asr/datasets.ts
//     dialogueRole "tune"), restricted to a vocabulary with pronunciations and pruned to the most
//     probable n-grams so pocketsphinx loads and searches it fast.
// The validation splits (the bench's evaluation set) are never read here.
//
//   node scripts/build-conversation-lm.ts [--general-words 60000] [--bigrams 1000000] [--trigrams 800000] [--lambda L] [--out DIR]
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import {
  addPronunciation,
  type Dictionary,
  formatDictionary,
  parseDictionary,
} from "#app/services/speech/clinical-lm/dictionary.ts";
import { ARPABET_PHONES, ipaToArpabet } from "#app/services/speech/clinical-lm/ipa-arpabet.ts";
import { formatArpaRows, mixModels } from "#app/services/speech/clinical-lm/mix.ts";
import { estimateTrigramModel } from "#app/services/speech/clinical-lm/ngram.ts";
import { readTrieLm, trieLmLookup } from "#app/services/speech/clinical-lm/sphinx-trie.ts";
import {
  allDialogues,
  clinicalCorpusSentences,
  type Dialogue,
  dialogueRole,
  mtsAugmentedDialogues,
} from "../bench/asr/datasets.ts";

const { values: opts } = parseArgs({
  options: {
    "general-words": { type: "string", default: "60000" },
    bigrams: { type: "string", default: "1000000" },
    trigrams: { type: "string", default: "800000" },
    lambda: { type: "string" },
    /** Another folder, to try limits without touching the committed model. */
    out: { type: "string" },
  },
});
const root = resolve(import.meta.dirname, "..");
const outDir = opts.out ? resolve(opts.out) : join(root, "app/services/speech/conversation-lm");
const STOCK_DIR = "/usr/share/pocketsphinx/model/en-us";
const log = (message: string) => console.log(`[${(performance.now() / 1000).toFixed(1)} s] ${message}`);

// ---- Text: train dialogues → LM; tune dialogues → λ; eval dialogues are not touched.
const dialogues = allDialogues();
const role = (d: Dialogue) => dialogueRole(d.corpus, d.split, d.id);
const sentencesOf = (d: Dialogue) => d.turns.flatMap((t) => t.sentences);
const train = dialogues.filter((d) => role(d) === "train");
const tune = dialogues.filter((d) => role(d) === "tune");
if (train.length === 0) throw new Error("no training dialogues: is ../shared/data present (MURMUR_SHARED_DATA)?");
const heldOutSentences = new Set(
  dialogues
    .filter((d) => role(d) !== "train")
    .flatMap(sentencesOf)
    .filter((s) => s.split(" ").length >= 5),
);
const trainIds = new Set(train.filter((d) => d.corpus === "mts-dialog").map((d) => d.id));
const augmented = mtsAugmentedDialogues().filter((d) => {
  const original = /:(\d+)$/.exec(d.id)?.[1];
  if (original !== undefined) return trainIds.has(original);
  return !sentencesOf(d).some((s) => heldOutSentences.has(s));
});
const teamSentences = clinicalCorpusSentences();
const trainSentences = [...train.flatMap(sentencesOf), ...augmented.flatMap(sentencesOf), ...teamSentences];
const tuneSentences = tune.flatMap(sentencesOf);
log(
  `text: ${train.length} train dialogues + ${augmented.length} MTS-Dialog augmented rows + ${teamSentences.length} team sentences ` +
    `= ${trainSentences.length} sentences; tuning ${tune.length} dialogues, ${tuneSentences.length} sentences`,
);

// ---- Clinical conversation model.
const tokenised = trainSentences.map((s) => s.split(" "));
const clinical = estimateTrigramModel(tokenised);
const counts = new Map<string, number>();
const trigramCounts = new Map<string, number>();
for (const words of tokenised) {
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  const t = ["<s>", ...words, "</s>"];
  for (let i = 0; i + 3 <= t.length; i++) {
    const g = `${t[i]} ${t[i + 1]} ${t[i + 2]}`;
    trigramCounts.set(g, (trigramCounts.get(g) ?? 0) + 1);
  }
}
const clinicalProb = (words: readonly string[]) => clinical.probability(words.length, words.join(" "));
log(`clinical model: n-grams ${clinical.stats.counts.join("/")}`);

// ---- General English.
const general = readTrieLm(readFileSync(join(STOCK_DIR, "en-us.lm.bin")));
const generalLookup = trieLmLookup(general);
log(`general model: ${general.words.length} words, ${general.bi.w1.length} bigrams, ${general.tri.w1.length} trigrams`);

// ---- Vocabulary: words with a pronunciation, the general model's most probable + the clinical text's.
const cmudict = parseDictionary(readFileSync(join(STOCK_DIR, "cmudict-en-us.dict"), "utf8"));
const handWritten = parseDictionary(readFileSync(join(root, "app/services/speech/clinical-lm/pronunciations.dict"), "utf8"));
const generalWords = Number(opts["general-words"]);
const byProb = general.words
  .map((w, i) => [w, general.uniProb[i] as number] as const)
  .filter(([w]) => !w.startsWith("<") && (cmudict.has(w) || handWritten.has(w)))
  .sort((x, y) => y[1] - x[1])
  .slice(0, generalWords)
  .map(([w]) => w);
const espeakWords: string[] = [];
const vocabulary = new Set(byProb);
for (const [w, c] of counts) {
  if (vocabulary.has(w) || c < 2 || !/^[a-z][a-z']*$/.test(w)) continue;
  if (cmudict.has(w) || handWritten.has(w)) vocabulary.add(w);
  else if (c >= 3) {
    vocabulary.add(w);
    espeakWords.push(w);
  }
}
vocabulary.add("</s>");
const inVocab = (w: string) => w === "<s>" || vocabulary.has(w);
log(`vocabulary: ${vocabulary.size} (${byProb.length} general, ${espeakWords.length} read by espeak-ng)`);

// ---- λ: EM on the tuning dialogues' tokens (in-vocabulary words, up to two words of context).
function tuningEvents(): [number, number][] {
  const events: [number, number][] = [];
  for (const s of tuneSentences) {
    const t = ["<s>", ...s.split(" "), "</s>"];
    for (let i = 1; i < t.length; i++) {
      if (!inVocab(t[i] as string)) continue;
      const context: string[] = [];
      for (let j = i - 1; j >= Math.max(0, i - 2) && inVocab(t[j] as string); j--) context.unshift(t[j] as string);
      const words = [...context, t[i] as string];
      events.push([clinicalProb(words), generalLookup.prob(words)]);
    }
  }
  return events;
}
const events = tuningEvents();
let lambda = opts.lambda ? Number(opts.lambda) : 0.5;
if (!opts.lambda) {
  for (let iteration = 0; iteration < 50; iteration++) {
    let sum = 0;
    for (const [pa, pb] of events) sum += (lambda * pa) / Math.max(lambda * pa + (1 - lambda) * pb, 1e-300);
    lambda = sum / events.length;
  }
}
const perplexity = (l: number) =>
  10 ** (-events.reduce((n, [pa, pb]) => n + Math.log10(Math.max(l * pa + (1 - l) * pb, 1e-12)), 0) / events.length);
const ppl = { clinical: perplexity(1), general: perplexity(0), mixture: perplexity(lambda) };
log(
  `λ = ${lambda.toFixed(3)}; tuning perplexity clinical ${ppl.clinical.toFixed(1)}, general ${ppl.general.toFixed(1)}, mixed ${ppl.mixture.toFixed(1)}`,
);

// ---- N-grams to list: every clinical bigram and repeated trigram in the vocabulary, then the
// general model's most probable ones (by joint probability) up to the size limits.
const startLogProb = Math.log10(1 / 12); // <s> has no unigram probability: about one sentence in 12 words
const uniLog = (id: number) => (general.words[id] === "<s>" ? startLogProb : (general.uniProb[id] as number));
const bigrams = new Set<string>();
for (const row of clinical.sections[1] ?? []) if (row.gram.split(" ").every(inVocab)) bigrams.add(row.gram);
const trigrams = new Set<string>();
for (const [gram, c] of trigramCounts) if (c >= 2 && gram.split(" ").every(inVocab)) trigrams.add(gram);
const clinicalListed = { bigrams: bigrams.size, trigrams: trigrams.size };

const idInVocab = general.words.map(inVocab);
function topGeneral(n: number, score: (i: number) => number | null): number[] {
  const scored: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    const s = score(i);
    if (s !== null) scored.push([s, i]);
  }
  return scored.sort((x, y) => y[0] - x[0]).map(([, i]) => i);
}
const maxBigrams = Number(opts.bigrams);
for (const i of topGeneral(general.bi.w1.length, (i) =>
  idInVocab[general.bi.w1[i] as number] && idInVocab[general.bi.w2[i] as number]
    ? uniLog(general.bi.w1[i] as number) + (general.bi.prob[i] as number)
    : null,
)) {
  if (bigrams.size >= maxBigrams) break;
  bigrams.add(`${general.words[general.bi.w1[i] as number]} ${general.words[general.bi.w2[i] as number]}`);
}
const maxTrigrams = Number(opts.trigrams);
const biIndex = new Map<number, number>();
for (let i = 0; i < general.bi.w1.length; i++)
  biIndex.set((general.bi.w1[i] as number) * 131_072 + (general.bi.w2[i] as number), general.bi.prob[i] as number);
for (const i of topGeneral(general.tri.w1.length, (i) => {
  const [a, b, c] = [general.tri.w1[i] as number, general.tri.w2[i] as number, general.tri.w3[i] as number];
  if (!idInVocab[a] || !idInVocab[b] || !idInVocab[c]) return null;
  return uniLog(a) + (biIndex.get(a * 131_072 + b) ?? -99) + (general.tri.prob[i] as number);
})) {
  if (trigrams.size >= maxTrigrams) break;
  const gram = `${general.words[general.tri.w1[i] as number]} ${general.words[general.tri.w2[i] as number]} ${general.words[general.tri.w3[i] as number]}`;
  trigrams.add(gram);
}
// ARPA needs each trigram's history as a bigram.
for (const gram of trigrams) bigrams.add(gram.slice(0, gram.lastIndexOf(" ")));
log(
  `listed: ${bigrams.size} bigrams (${clinicalListed.bigrams} clinical), ${trigrams.size} trigrams (${clinicalListed.trigrams} clinical)`,
);

const sections = mixModels({
  vocabulary: [...vocabulary].sort(),
  bigrams: [...bigrams].sort(),
  trigrams: [...trigrams].sort(),
  a: clinicalProb,
  b: generalLookup.prob,
  lambda,
});
const header = [
  "Murmur conversation trigram LM, built by scripts/build-conversation-lm.ts. Do not edit by hand.",
  `Clinical-conversation KN trigram (MTS-Dialog train + back-translations, ACI-Bench train; CC BY 4.0, see NOTICE.md;`,
  `team corpus) interpolated with Debian's en-us.lm.bin (λ clinical = ${lambda.toFixed(3)}), pruned.`,
].join("\n");
mkdirSync(outDir, { recursive: true });
// Gzipped: a third of the size in the repository; pocketsphinx reads .gz ARPA through gzip (~0.3 s more per load).
writeFileSync(join(outDir, "conversation.arpa.gz"), gzipSync(formatArpaRows(sections, header), { level: 9 }));

// ---- Dictionary.
const dict: Dictionary = new Map();
for (const word of [...vocabulary].sort()) {
  if (word === "</s>") continue;
  for (const phones of handWritten.get(word) ?? []) addPronunciation(dict, word, phones);
  for (const phones of cmudict.get(word) ?? []) addPronunciation(dict, word, phones);
  if (!dict.has(word)) {
    const ipa = execFileSync("espeak-ng", ["-q", "-v", "en-us", "--ipa", word], { encoding: "utf8" }).trim();
    addPronunciation(dict, word, ipaToArpabet(ipa));
  }
  for (const phones of dict.get(word) ?? []) {
    const unknown = phones.filter((p) => !ARPABET_PHONES.has(p));
    if (unknown.length > 0 || phones.length === 0) throw new Error(`${word}: no usable pronunciation (${unknown.join(",")})`);
  }
}
writeFileSync(join(outDir, "conversation.dict"), formatDictionary(dict));

const tuneWords = tuneSentences.flatMap((s) => s.split(" "));
const report = {
  text: {
    trainDialogues: {
      aciBench: train.filter((d) => d.corpus === "aci-bench").length,
      mtsDialog: train.length - train.filter((d) => d.corpus === "aci-bench").length,
    },
    mtsAugmentedRows: augmented.length,
    teamSentences: teamSentences.length,
    sentences: trainSentences.length,
    words: tokenised.reduce((n, s) => n + s.length, 0),
  },
  tuning: {
    dialogues: tune.map((d) => `${d.corpus}/${d.split}/${d.id}`),
    words: tuneWords.length,
    oovRate: Number((tuneWords.filter((w) => !vocabulary.has(w)).length / Math.max(1, tuneWords.length)).toFixed(4)),
    lambdaClinical: Number(lambda.toFixed(4)),
    perplexity: Object.fromEntries(Object.entries(ppl).map(([k, v]) => [k, Number(v.toFixed(1))])),
  },
  vocabulary: { size: vocabulary.size, general: byProb.length, espeakOnly: espeakWords.length },
  ngrams: sections.map((s) => s.length),
  clinicalNgrams: clinical.stats.counts,
  limits: { generalWords, bigrams: maxBigrams, trigrams: maxTrigrams },
};
writeFileSync(join(outDir, "build-report.json"), `${JSON.stringify(report, null, 2)}\n`);
if (!opts.out)
  // As the repository's formatter wants it (biome ignores files outside the project, e.g. --out /tmp/…).
  execFileSync(join(root, "node_modules/.bin/biome"), ["format", "--write", join(outDir, "build-report.json")], {
    stdio: "ignore",
  });
log(
  `conversation LM: n-grams ${report.ngrams.join("/")}, vocabulary ${vocabulary.size}, tuning OOV ${(report.tuning.oovRate * 100).toFixed(1)}%`,
);
