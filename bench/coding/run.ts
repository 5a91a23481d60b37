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

import { applyCutoff, CONFIDENCE_CUTOFF } from "#app/services/coding/cutoff.ts";
import type { Suggestion } from "#app/services/coding/model.ts";

/** A system's ranked codes; the embedded engine's also carry confidence and the cut-off. */
type System = (doc: CodiEspDoc) => string[] | Suggestion[];

// --cutoffs: also score the above-cut-off set at other cut-offs (how CONFIDENCE_CUTOFF was chosen, on held-out train).
const sweep = args.includes("--cutoffs") ? [0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5] : [];
const above = { count: [] as number[], hits: 0, shown: 0, gold: 0 };
const perCutoff = new Map(sweep.map((c) => [c, { hits: 0, shown: 0 }]));
// Calibration: predicted confidence against the observed share coded, in 10 bins (expected calibration error).
const bins = Array.from({ length: 10 }, () => ({ n: 0, conf: 0, hit: 0 }));

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
    const out = system(doc);
    rows.ms.push(performance.now() - started);
    const ranked = out.map((c) => (typeof c === "string" ? c : c.code).replace(".", ""));
    // Exact codes are scored against the FY2026-valid gold only; categories against all gold.
    const gold = new Set(doc.gold.filter((c) => table.get(c)?.billable));
    if (name === DEFAULT && out.length > 0 && typeof out[0] !== "string") {
      const suggestions = applyCutoff(out as Suggestion[]);
      const shown = suggestions.filter((s) => s.above_cutoff);
      above.count.push(shown.length);
      above.shown += shown.length;
      above.hits += shown.filter((s) => gold.has(s.code.replace(".", ""))).length;
      above.gold += gold.size;
      for (const s of suggestions) {
        const b = bins[Math.min(9, Math.floor(s.confidence * 10))]!;
        b.n++;
        b.conf += s.confidence;
        b.hit += gold.has(s.code.replace(".", "")) ? 1 : 0;
      }
      for (const [c, acc] of perCutoff) {
        const set = suggestions.filter((s, i) => i < 50 && s.confidence >= c).slice(0, 15);
        acc.shown += set.length;
        acc.hits += set.filter((s) => gold.has(s.code.replace(".", ""))).length;
      }
    } else if (name === DEFAULT) above.count.push(0);
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

const DEFAULT = "embedded (default: history → Z codes)";
const engine = embeddedEngine({ lexicon });
const codiespEngine = embeddedEngine({ historyAsCondition: true, lexicon });
const run = (e: typeof engine) => (doc: CodiEspDoc) =>
  e.suggestSync({ sources: [{ source: "text", text: doc.text }], language: "en", systems: ["icd10cm"] });
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
console.log(evaluate(DEFAULT, run(engine)));
reportCutoff();
if (quick) process.exit(0);
for (const w of args.includes("--tune") ? [4, 8, 12, 16] : []) {
  console.log(
    evaluate(`embedded, learned weight ${w}`, run(embeddedEngine({ historyAsCondition: true, learnedWeight: w, lexicon }))),
  );
}
console.log(evaluate("embedded, history coded as the condition (CodiEsp convention)", run(codiespEngine)));

/** The default engine's above-cut-off set: size per report, precision, recall, F1; and calibration. */
function reportCutoff() {
  const f1 = (hits: number, shown: number) => {
    const p = hits / Math.max(1, shown);
    const r = hits / Math.max(1, above.gold);
    return { p, r, f: (2 * p * r) / Math.max(1e-9, p + r) };
  };
  const mean = above.count.reduce((a, b) => a + b, 0) / Math.max(1, above.count.length);
  const m = f1(above.hits, above.shown);
  console.log(
    `\nAbove the cut-off (confidence ≥ ${CONFIDENCE_CUTOFF}, at most 15): ${mean.toFixed(1)} per report (max ${Math.max(...above.count)}, p95 ${percentile(above.count, 95)}), precision ${m.p.toFixed(3)}, recall ${m.r.toFixed(3)}, F1 ${m.f.toFixed(3)}`,
  );
  for (const [c, acc] of perCutoff) {
    const x = f1(acc.hits, acc.shown);
    console.log(
      `  cut-off ${c}: ${(acc.shown / docs.length).toFixed(1)} per report, precision ${x.p.toFixed(3)}, recall ${x.r.toFixed(3)}, F1 ${x.f.toFixed(3)}`,
    );
  }
  const total = bins.reduce((n, b) => n + b.n, 0);
  const ece = bins.reduce((e, b) => e + (b.n > 0 ? (b.n / total) * Math.abs(b.conf / b.n - b.hit / b.n) : 0), 0);
  console.log(
    `Calibration (every suggestion): ECE ${ece.toFixed(3)}; ${bins
      .filter((b) => b.n > 0)
      .map((b) => `${(b.conf / b.n).toFixed(2)}→${(b.hit / b.n).toFixed(2)} (n ${b.n})`)
      .join(", ")}`,
  );
}
