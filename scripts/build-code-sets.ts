// Turns the public-domain ICD-10-CM FY2026 and HCPCS Level II (January 2019) release files into the
// project's own compact data (docs/coding.md "Code sets"), committed so that the app never reads
// ../shared at run time. Outputs in app/services/coding/data/:
//   icd10cm-fy2026.json.gz  billable codes with official long titles, categories (3-character
//                           headers, never billable unless listed as billable), sections, chapters,
//                           and the Neoplasm Table rows (site → the six behaviour columns)
//   hcpcs-2019-jan.json.gz  HCPCS Level II procedure/supply codes and modifiers (terminated ones kept
//                           with their termination date, so that an old claim still shows its title)
//
//   node scripts/build-code-sets.ts [--source ../shared/data] [--check]
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";

const root = resolve(import.meta.dirname, "..");
const argSource = process.argv.indexOf("--source");
const source = resolve(argSource > 0 ? (process.argv[argSource + 1] ?? "") : join(root, "../shared/data"));
const outDir = join(root, "app/services/coding/data");
const checkOnly = process.argv.includes("--check");

/** RFC 4180 CSV (quoted fields, doubled quotes, commas inside quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      if (row.some((f) => f !== "")) rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  row.push(field);
  if (row.some((f) => f !== "")) rows.push(row);
  return rows;
}

const decodeXml = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

/**
 * The Neoplasm Table as [site path, [6 cells]] rows. Nested <term level> titles are joined with
 * ", " under their parents ("lung, upper lobe"); "--" and empty cells become "".
 */
function parseNeoplasmTable(xml: string): Array<[string, string[]]> {
  const rows: Array<[string, string[]]> = [];
  const stack: string[] = [];
  let cells: string[] | null = null;
  let depth = 0;
  const re = /<(\/?)(mainTerm|term|title|cell)([^>]*)>([^<]*(?:<(?!\/?(?:mainTerm|term|title|cell)\b)[^<]*)*)/g;
  for (let m = re.exec(xml); m; m = re.exec(xml)) {
    const [, close, tag, attrs, body] = m;
    if (tag === "mainTerm" || tag === "term") {
      if (close) {
        if (cells) rows.push([stack.slice(0, depth).join(", "), cells]);
        cells = null;
        depth--;
        stack.length = depth;
      } else {
        if (cells) rows.push([stack.slice(0, depth).join(", "), cells]);
        cells = null;
        depth++;
      }
    } else if (tag === "title" && !close) {
      stack[depth - 1] = decodeXml(body ?? "");
    } else if (tag === "cell" && !close) {
      const col = Number(/col="(\d+)"/.exec(attrs ?? "")?.[1]);
      const value = decodeXml(body ?? "").replace(/[.-]/g, "");
      cells ??= ["", "", "", "", "", ""];
      if (col >= 2 && col <= 7) cells[col - 2] = value === "" ? "" : value;
    }
  }
  return rows.filter(([site, c]) => site && c.some(Boolean));
}

function buildIcd10cm() {
  const dir = join(source, "icd10cm");
  const tsv = readFileSync(join(dir, "icd10cm_codes_descriptions_FY2026.tsv"), "utf8");
  const codes = tsv
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [code, title] = line.split("\t");
      if (!code || !title || !/^[A-Z][0-9A-Z][0-9A-Z]{1,5}$/.test(code)) throw new Error(`bad ICD-10-CM row: ${line}`);
      return [code, title.trim()] as [string, string];
    });
  const billableOnly = readFileSync(join(dir, "icd10cm_billable_codes_FY2026_codes_only.txt"), "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  if (billableOnly.length !== codes.length || billableOnly.some((c, i) => codes[i]?.[0] !== c)) {
    throw new Error("the codes-only list and the descriptions TSV disagree");
  }
  const categories = parseCsv(readFileSync(join(dir, "icd10cm-categories-April-1-2026.csv"), "utf8"))
    .slice(1)
    .map(([code, title, section, chapter]) => [code, title, section, Number(chapter)] as const);
  const sections = parseCsv(readFileSync(join(dir, "icd10cm-sections-April-1-2026.csv"), "utf8"))
    .slice(1)
    .map(([range, chapter, title]) => [range, Number(chapter), title] as const);
  const chapters = parseCsv(readFileSync(join(dir, "icd10cm-chapters-April-1-2026.csv"), "utf8"))
    .slice(1)
    .map(([chapter, title]) => [Number(chapter), title] as const);
  const billable = new Set(codes.map(([c]) => c));
  const neoplasm = parseNeoplasmTable(readFileSync(join(dir, "index_xml/icd10cm-neoplasm-April-1-2026-XML.xml"), "utf8")).map(
    ([site, cells]) => [site, cells.map((c) => (billable.has(c) ? c : c ? `${c}-` : ""))] as const,
  );
  return {
    system: "icd10cm",
    version: "FY2026",
    effective: "2025-10-01",
    source: "CDC/NCHS and CMS ICD-10-CM FY2026 (April 1, 2026 update), public domain",
    codes,
    categories,
    sections,
    chapters,
    neoplasm,
  };
}

function buildHcpcs() {
  const rows = parseCsv(readFileSync(join(source, "hcpcs/hcpcs_level2_2019_jan.csv"), "utf8"));
  const header = rows[0]?.join(",");
  if (!header?.startsWith("code,type,long_description,short_description")) throw new Error("unexpected HCPCS header");
  const codes = rows.slice(1).map((r) => {
    const [code, type, long, short, , , , , termination] = r;
    if (!code || !type || !long) throw new Error(`bad HCPCS row: ${r.join(",")}`);
    return [code, type === "modifier" ? "m" : "p", long.trim(), (short ?? "").trim(), termination ?? ""] as const;
  });
  return {
    system: "hcpcs",
    version: "2019-01",
    effective: "2019-01-01",
    source: "CMS HCPCS Level II 2019 Alpha-Numeric file (HCPC2019_CONTR_ANWEB), public domain",
    codes,
  };
}

let stale = false;
for (const [name, data] of [
  ["icd10cm-fy2026.json.gz", buildIcd10cm()],
  ["hcpcs-2019-jan.json.gz", buildHcpcs()],
] as const) {
  const json = JSON.stringify(data);
  const path = join(outDir, name);
  if (checkOnly) {
    let current = "";
    try {
      current = gunzipSync(readFileSync(path)).toString("utf8");
    } catch {}
    if (current !== json) {
      console.error(`${name} is stale: run node scripts/build-code-sets.ts`);
      stale = true;
    }
    continue;
  }
  // mtime 0 in the gzip header keeps the output byte-identical across runs.
  writeFileSync(path, gzipSync(json, { level: 9 }));
  console.log(`${name}: ${(json.length / 1e6).toFixed(1)} MB JSON`);
}
if (stale) process.exit(1);
