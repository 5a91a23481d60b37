// Turns the inclusion terms of the ICD-10-CM FY2021 Tabular List (CDC/NCHS, public domain;
// ../shared/data/icd10cm-inclusion-terms-fy2021/) into the project's own data file, committed like
// the code sets (scripts/build-code-sets.ts) so that the app never reads ../shared at run time:
//   app/services/coding/data/icd10cm-inclusion-fy2021.json.gz
// Each term keeps the FY2021 code it is printed under and a status against the FY2026 code list:
//   ""        the code is billable in FY2026 (the term can be suggested as is)
//   "header"  the code was a category/subcategory already in FY2021 (the term names its children)
//   "split"   the code was billable in FY2021 and has since been split into longer codes
//             ("Lumbago NOS" under M54.5 → M54.50, M54.51, M54.59): a coder must choose among them
//   "retired" neither the code nor any longer code exists in FY2026 (its nearest parent is used)
// Search and the engine always resolve a term to FY2026 billable codes (codes/inclusion.ts).
//
//   node scripts/build-inclusion-terms.ts [--source ../shared/data] [--check]
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";

const root = resolve(import.meta.dirname, "..");
const argSource = process.argv.indexOf("--source");
const source = resolve(argSource > 0 ? (process.argv[argSource + 1] ?? "") : join(root, "../shared/data"));
const checkOnly = process.argv.includes("--check");
const out = join(root, "app/services/coding/data/icd10cm-inclusion-fy2021.json.gz");

const dir = join(source, "icd10cm-inclusion-terms-fy2021");
const billable2026 = new Set(
  readFileSync(join(source, "icd10cm/icd10cm_billable_codes_FY2026_codes_only.txt"), "utf8")
    .split(/\r?\n/)
    .map((l) => l.trim().toUpperCase())
    .filter(Boolean),
);
const sorted2026 = [...billable2026].sort();

// A FY2021 code was billable when no other <diag> of the Tabular List extends it.
const names2021 = [
  ...gunzipSync(readFileSync(join(dir, "icd10cm_tabular_2021.xml.gz")))
    .toString("utf8")
    .matchAll(/<diag>\s*<name>([^<]+)<\/name>/g),
].map((m) => m[1]!.replace(".", "").toUpperCase());
const sorted2021 = [...new Set(names2021)].sort();
const hasLonger = (sorted: string[], key: string) => {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && sorted[lo]!.startsWith(key);
};

export type TermStatus = "" | "header" | "split" | "retired";
const terms: Array<[string, string, TermStatus]> = [];
const counts: Record<string, number> = { current: 0, header: 0, split: 0, retired: 0 };
const lines = readFileSync(join(dir, "inclusion_terms_FY2021.tsv"), "utf8").split(/\r?\n/).slice(1).filter(Boolean);
for (const line of lines) {
  const [code, , term] = line.split("\t");
  if (!code || !term) continue;
  const key = code.replace(".", "").toUpperCase();
  let status: TermStatus;
  if (billable2026.has(key)) status = "";
  else if (hasLonger(sorted2026, key)) status = hasLonger(sorted2021, key) ? "header" : "split";
  else status = "retired";
  counts[status || "current"]!++;
  terms.push([term.trim(), key, status]);
}

const data = {
  source:
    "ICD-10-CM FY2021 Tabular List inclusion terms (CDC/NCHS, public domain), statuses against the FY2026 billable code list",
  version: "FY2021",
  counts,
  terms,
};
const json = JSON.stringify(data);
if (checkOnly) {
  let current = "";
  try {
    current = gunzipSync(readFileSync(out)).toString("utf8");
  } catch {}
  if (current !== json) {
    console.error("icd10cm-inclusion-fy2021.json.gz is stale: run node scripts/build-inclusion-terms.ts");
    process.exit(1);
  }
} else {
  writeFileSync(out, gzipSync(json, { level: 9 }));
  console.log(`${terms.length} inclusion terms: ${JSON.stringify(counts)} → ${out} (${(json.length / 1e6).toFixed(2)} MB JSON)`);
}
