// bench/coding: ICD-10-CM suggestions on CodiEsp (English machine translation of the CLEF eHealth
// 2020 case reports), tuned on train, reported on dev (docs/coding.md "Benchmark").
// `npm run bench:coding` (dev), `-- --split train`, `-- --show <id>`, `-- --quick` (default engine only).
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { gunzipSync } from "node:zlib";
import { icd10cmTable } from "#app/services/coding/codes/registry.server.ts";
import { embeddedEngine } from "#app/services/coding/engines/embedded/index.ts";
import type { LexiconFile } from "#app/services/coding/engines/embedded/lexicon.ts";
import { titleOverlapBaseline } from "./baseline.ts";
import { type CodiEspDoc, loadCodiEsp } from "./data.ts";
import { averagePrecision, categories, percentile, precisionAt, recallAt } from "./metrics.ts";

const args = process.argv.slice(2);
const split = (args[args.indexOf("--split") + 1] === "train" && args.includes("--split") ? "train" : "dev") as "train" | "dev";
const show = args.includes("--show") ? args[args.indexOf("--show") + 1] : undefined;
// --holdout N (with --split train): score the last N train documents, left out of the lexicon by
// `node scripts/train-coding-lexicon.ts --holdout N`; how the weights were tuned without dev.
const holdout = args.includes("--holdout") ? Number(args[args.indexOf("--holdout") + 1]) : 0;
const docs = holdout > 0 ? loadCodiEsp("train").slice(-holdout) : loadCodiEsp(split);
const table = icd10cmTable();
// --lexicon file.json.gz: a lexicon other than the shipped one (`train-coding-lexicon.ts --holdout N --out …`).
const lexiconArg = args.includes("--lexicon") ? args[args.indexOf("--lexicon") + 1] : undefined;
const lexicon = lexiconArg ? (JSON.parse(gunzipSync(readFileSync(lexiconArg)).toString("utf8")) as LexiconFile) : undefined;

type System = (doc: CodiEspDoc) => string[];

function evaluate(name: string, system: System) {
  const rows = {
    map: [] as number[],
    p5: [] as number[],
    r15: [] as number[],
    cmap: [] as number[],
    cp5: [] as number[],
    cr15: [] as number[],
    ms: [] as number[],
  };
  for (const doc of docs) {
    const started = performance.now();
    const ranked = system(doc).map((c) => c.replace(".", ""));
    rows.ms.push(performance.now() - started);
    // Exact codes are scored against the FY2026-valid gold only; categories against all gold.
    const gold = new Set(doc.gold.filter((c) => table.get(c)?.billable));
    if (gold.size > 0) {
      rows.map.push(averagePrecision(ranked, gold));
      rows.p5.push(precisionAt(ranked, gold, 5));
      rows.r15.push(recallAt(ranked, gold, 15));
    }
    const cats = categories(ranked);
    const goldCats = new Set(categories(doc.gold));
    rows.cmap.push(averagePrecision(cats, goldCats));
    rows.cp5.push(precisionAt(cats, goldCats, 5));
    rows.cr15.push(recallAt(cats, goldCats, 15));
    if (show === doc.id) {
      console.log(doc.text);
      console.log("gold", doc.gold.join(" "));
      console.log("ranked", ranked.join(" "));
    }
  }
  const mean = (xs: number[]) => (xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)).toFixed(3);
  return `| ${name} | ${mean(rows.map)} | ${mean(rows.p5)} | ${mean(rows.r15)} | ${mean(rows.cmap)} | ${mean(rows.cp5)} | ${mean(rows.cr15)} | ${percentile(rows.ms, 50).toFixed(1)} | ${percentile(rows.ms, 95).toFixed(1)} |`;
}

const engine = embeddedEngine({ lexicon });
const codiespEngine = embeddedEngine({ historyAsCondition: true, lexicon });
const run = (e: typeof engine) => (doc: CodiEspDoc) =>
  e.suggestSync({ sources: [{ source: "text", text: doc.text }], language: "en", systems: ["icd10cm"] }).map((s) => s.code);
// Warm-up: the first call builds the index (once per process), not part of per-document time.
run(engine)(docs[0]!);

console.log(
  `CodiEsp ${holdout > 0 ? `train hold-out (last ${holdout})` : split}: ${docs.length} documents, ${docs.reduce((n, d) => n + d.gold.length, 0)} gold codes\n`,
);
console.log("| system | MAP | P@5 | R@15 | cat. MAP | cat. P@5 | cat. R@15 | ms p50 | ms p95 |");
console.log("|---|---|---|---|---|---|---|---|---|");
// --quick: the default engine only (for tuning loops).
const quick = args.includes("--quick");
if (!quick) console.log(evaluate("title-word overlap baseline", titleOverlapBaseline(table)));
if (!quick) console.log(evaluate("embedded, titles only (no learned lexicon)", run(embeddedEngine({ withLexicon: false }))));
if (!quick)
  console.log(
    evaluate("embedded, lexicon, summed-score ranking (no learned ranker)", run(embeddedEngine({ withRanker: false, lexicon }))),
  );
if (!quick)
  console.log(evaluate("embedded, confident candidates only (no tail)", run(embeddedEngine({ withTail: false, lexicon }))));
console.log(evaluate("embedded (default: history → Z codes)", run(engine)));
if (quick) process.exit(0);
for (const w of args.includes("--tune") ? [4, 8, 12, 16] : []) {
  console.log(
    evaluate(`embedded, learned weight ${w}`, run(embeddedEngine({ historyAsCondition: true, learnedWeight: w, lexicon }))),
  );
}
console.log(evaluate("embedded, history coded as the condition (CodiEsp convention)", run(codiespEngine)));
