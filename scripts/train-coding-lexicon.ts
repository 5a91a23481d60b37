// Trains the embedded coding engine's learned phrase lexicon on the CodiEsp train split (CC BY 4.0;
// attribution in app/services/coding/data/NOTICE): for every phrase of 1–3 words (stemmed, no stop
// word at either end) found in at least MIN_DOCS training documents, the FY2026 billable codes its
// documents were coded with, kept when P(code | phrase) ≥ MIN_P and at least MIN_LIFT times the code's own frequency. Only phrase → code statistics
// ship, never corpus text (docs/coding.md "Learned lexicon"). The dev split is never read.
//
//   node scripts/train-coding-lexicon.ts [--holdout 100]   (--holdout: leave the last N train documents out, for tuning)
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { icd10cmTable } from "#app/services/coding/codes/registry.server.ts";
import { phrasesOf } from "#app/services/coding/engines/embedded/phrases.ts";
import { loadCodiEsp } from "#bench/coding/data.ts";

const MIN_DOCS = 2;
const MIN_CO = 2;
const MIN_P = 0.25;
// A phrase must say more about a code than the code's frequency does ("patient was admitted" is not evidence of pain).
const MIN_LIFT = 3;
const MAX_CODES_PER_PHRASE = 4;

const holdoutArg = process.argv.indexOf("--holdout");
const holdout = holdoutArg > 0 ? Number(process.argv[holdoutArg + 1]) : 0;
const train = loadCodiEsp("train");
const docs = holdout > 0 ? train.slice(0, train.length - holdout) : train;
const table = icd10cmTable();

const df = new Map<string, number>();
const co = new Map<string, Map<string, number>>();
for (const doc of docs) {
  const gold = doc.gold.filter((c) => table.get(c)?.billable);
  for (const phrase of new Set(phrasesOf(doc.text))) {
    df.set(phrase, (df.get(phrase) ?? 0) + 1);
    let m = co.get(phrase);
    if (!m) {
      m = new Map();
      co.set(phrase, m);
    }
    for (const c of gold) m.set(c, (m.get(c) ?? 0) + 1);
  }
}
const codeDocs = new Map<string, number>();
for (const doc of docs) for (const c of new Set(doc.gold)) codeDocs.set(c, (codeDocs.get(c) ?? 0) + 1);
const lexicon: Array<[string, Array<[string, number, number]>]> = [];
for (const [phrase, n] of df) {
  if (n < MIN_DOCS) continue;
  const codes = [...(co.get(phrase) ?? [])]
    .filter(([c, k]) => k >= MIN_CO && k / n >= MIN_P && k / n / ((codeDocs.get(c) ?? 1) / docs.length) >= MIN_LIFT)
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_CODES_PER_PHRASE)
    .map(([c, k]) => [c, Math.round((k / n) * 1000) / 1000, k] as [string, number, number]);
  if (codes.length > 0) lexicon.push([phrase, codes]);
}
lexicon.sort((a, b) => (a[0] < b[0] ? -1 : 1));
const out = join(resolve(import.meta.dirname, ".."), "app/services/coding/data/codiesp-lexicon.json.gz");
writeFileSync(
  out,
  gzipSync(JSON.stringify({ source: "CodiEsp train (CC BY 4.0), see NOTICE", documents: docs.length, minP: MIN_P, lexicon }), {
    level: 9,
  }),
);
console.log(`${lexicon.length} phrases from ${docs.length} training documents → ${out}`);
