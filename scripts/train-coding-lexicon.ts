// Trains the embedded coding engine's learned model on the CodiEsp train split (CC BY 4.0;
// attribution in app/services/coding/data/NOTICE) and writes app/services/coding/data/codiesp-lexicon.json.gz:
//  1. the phrase lexicon (engines/embedded/train.ts): phrase → code statistics, never corpus text;
//  2. the learned ranking (engines/embedded/ranker.ts), fitted with 5-fold cross-fitting: each fold's
//     candidates come from a lexicon trained on the other four folds, so the ranker learns how much to
//     trust a lexicon match on documents the lexicon has not seen (as on dev and in production).
// The dev split is never read (docs/coding.md "Learned lexicon").
//
//   node scripts/train-coding-lexicon.ts [--holdout 100] [--out file.json.gz]
//   (--holdout: leave the last N train documents out, for tuning; --out: write elsewhere than the shipped file)
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { icd10cmTable } from "#app/services/coding/codes/registry.server.ts";
import { embeddedEngine } from "#app/services/coding/engines/embedded/index.ts";
import {
  FEATURES,
  featureVector,
  fitRanker,
  TAIL_FEATURES,
  tailFeatureVector,
} from "#app/services/coding/engines/embedded/ranker.ts";
import { type CodedDocument, trainLexicon } from "#app/services/coding/engines/embedded/train.ts";
import { loadCodiEsp } from "#bench/coding/data.ts";

const FOLDS = 5;
// Candidates per document the ranker learns from (the engine shows at most 50).
const CANDIDATES = 80;

const holdoutArg = process.argv.indexOf("--holdout");
const holdout = holdoutArg > 0 ? Number(process.argv[holdoutArg + 1]) : 0;
const train = loadCodiEsp("train");
const docs: CodedDocument[] = holdout > 0 ? train.slice(0, train.length - holdout) : train;
const table = icd10cmTable();

const xs: number[][] = [];
const ys: number[] = [];
// The tail (candidates without a confident match) gets its own ranker, fitted the same way.
const tailXs: number[][] = [];
const tailYs: number[] = [];
for (let k = 0; k < FOLDS; k++) {
  const inFold = (_: unknown, i: number) => i % FOLDS === k;
  const lexicon = trainLexicon(
    docs.filter((d, i) => !inFold(d, i)),
    table,
  );
  const engine = embeddedEngine({ lexicon, historyAsCondition: false });
  for (const doc of docs.filter(inFold)) {
    const gold = new Set(doc.gold);
    const all = engine
      .candidates({ sources: [{ source: "text", text: doc.text }], language: "en", systems: ["icd10cm"] })
      .sort((a, b) => b.score - a.score);
    for (const c of all.filter((c) => !c.tail).slice(0, CANDIDATES)) {
      xs.push(featureVector(c.stats));
      ys.push(gold.has(c.key) ? 1 : 0);
    }
    for (const c of all.filter((c) => c.tail).slice(0, CANDIDATES)) {
      tailXs.push(tailFeatureVector(c.stats));
      tailYs.push(gold.has(c.key) ? 1 : 0);
    }
  }
}
const ranker = fitRanker(xs, ys, FEATURES);
const tailRanker = fitRanker(tailXs, tailYs, TAIL_FEATURES);
const lexicon = { ...trainLexicon(docs, table), ranker, tailRanker };
const outArg = process.argv.indexOf("--out");
const out =
  outArg > 0
    ? resolve(process.argv[outArg + 1]!)
    : join(resolve(import.meta.dirname, ".."), "app/services/coding/data/codiesp-lexicon.json.gz");
writeFileSync(out, gzipSync(JSON.stringify(lexicon), { level: 9 }));
console.log(`${lexicon.lexicon.length} phrases from ${docs.length} training documents; ranker on ${xs.length} candidates`);
console.log(ranker.features.map((f, i) => `${f} ${ranker.weights[i]}`).join(", "), `bias ${ranker.bias}`);
console.log(
  `tail ranker on ${tailXs.length} candidates (${tailYs.filter(Boolean).length} gold):`,
  tailRanker.features.map((f, i) => `${f} ${tailRanker.weights[i]}`).join(", "),
  `bias ${tailRanker.bias}`,
);
console.log(`→ ${out}`);
