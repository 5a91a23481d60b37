// Builds app/services/rag/lexicon/icd10cm-synonyms.json: groups of equivalent clinical phrases
// taken from public-domain ICD-10-CM (CDC/NCHS, CMS; see ../shared/data/icd10cm/README.md):
//   - titles that name a condition two ways, "Varicella [chickenpox]", "Thyrotoxicosis [hyperthyroidism]";
//   - the Table of Drugs and Chemicals' cross-references, "Aleve — see Naproxen".
// The app never reads ../shared at run time: this script writes the compact file that ships.
// Usage: node scripts/build-rag-lexicon.ts [path/to/icd10cm]
import fs from "node:fs";
import path from "node:path";

const dir = path.resolve(process.argv[2] ?? "../shared/data/icd10cm");
const out = path.resolve("app/services/rag/lexicon/icd10cm-synonyms.json");

const clean = (s: string) =>
  s
    .toLowerCase()
    .replace(/<[^>]+>/g, "")
    .replace(/\s+/g, " ")
    .replace(/[,;:]$/, "")
    .trim();
const words = (s: string) => s.split(" ").length;
const groups = new Map<string, Set<string>>();
function addGroup(a: string, b: string): void {
  // "Abnormal electrocardiogram [ECG]": the test's name is the synonym, not the finding.
  const x = clean(a).replace(/^abnormal /, "");
  const y = clean(b).replace(/^abnormal /, "");
  // Fragments ("part of", "any part except buttock"), ranges ("body mass index 20.0-20.9") and cut words.
  // An injury's side or an encounter qualifier is not a name of the condition.
  const QUALIFIER =
    /^(left|right|type i+)$|^(contusion|laceration|displaced|nondisplaced|maternal|underdosing|poisoning|adverse) /m;
  if (QUALIFIER.test(`${x}\n${y}`)) return;
  if (
    /\d|^-|^(any|part|except|other|unspecified|high-ceiling)\b/.test(x) ||
    /\d|^-|^(any|part|except|other|unspecified)\b/.test(y)
  )
    return;
  // Short names only: a five-word title is a description, not something a clinician types.
  if (!x || !y || x === y || words(x) > 4 || words(y) > 4 || /[()[\]]/.test(x + y)) return;
  const key = [x, y].sort().join("|");
  if (!groups.has(key)) groups.set(key, new Set([x, y]));
}

// "Head [alternative] tail": the title with and without the head noun's alternative name.
const BRACKET = /^(.*?)([A-Za-z' -]+) \[([^\]]+)\](.*)$/;
const titles: string[] = [];
for (const line of fs.readFileSync(path.join(dir, "icd10cm-categories-April-1-2026.csv"), "utf8").split("\n").slice(1)) {
  const m = /^[A-Z0-9]+,("([^"]+)"|[^,]+),/.exec(line);
  if (m) titles.push(m[2] ?? m[1] ?? "");
}
for (const line of fs.readFileSync(path.join(dir, "icd10cm_codes_descriptions_FY2026.tsv"), "utf8").split("\n")) {
  const title = line.split("\t")[1];
  if (title?.includes("[")) titles.push(title);
}
for (const title of titles) {
  const m = BRACKET.exec(title);
  if (!m) continue;
  const [, , head = "", alt = "", tail = ""] = m;
  // "Varicella [chickenpox]" → varicella ~ chickenpox; "Niacin deficiency [pellagra]" → niacin deficiency ~ pellagra.
  if (tail.trim() === "" || /^[\s,]/.test(tail)) addGroup(head, alt);
  const whole = `${head}${tail.split(",")[0]}`;
  if (whole !== head) addGroup(whole, alt);
}

const xml = fs.readFileSync(path.join(dir, "index_xml/icd10cm-drug-April-1-2026-XML.xml"), "utf8");
for (const m of xml.matchAll(/<mainTerm>\s*<title>([\s\S]*?)<\/title>\s*<see>([^<]+)<\/see>/g)) {
  addGroup(m[1] ?? "", m[2] ?? "");
}

const result = [...groups.values()].map((g) => [...g]).sort((a, b) => (a[0] ?? "").localeCompare(b[0] ?? ""));
// One group per line, as the formatter (biome) lays the file out, so a rebuild leaves no diff.
const lines = result.map((g) => `    ${JSON.stringify(g).replace(/","/g, '", "')}`);
const source = "ICD-10-CM FY2026 (public domain), scripts/build-rag-lexicon.ts";
fs.writeFileSync(out, `{\n  "source": ${JSON.stringify(source)},\n  "groups": [\n${lines.join(",\n")}\n  ]\n}\n`);
console.log(`${result.length} synonym groups → ${path.relative(process.cwd(), out)}`);
