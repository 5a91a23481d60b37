import { type InclusionFile, InclusionIndex } from "./inclusion.ts";
import { type HcpcsFile, type Icd10cmFile, readCodeSetFile } from "./load.server.ts";
import { type CodeEntry, CodeTable, displayCode } from "./table.ts";

// The built-in code sets, loaded once per process on first use (about 0.5 s for ICD-10-CM).

let icd: { table: CodeTable; file: Icd10cmFile } | null = null;
let hcpcs: CodeTable | null = null;

export function icd10cmData(): { table: CodeTable; file: Icd10cmFile } {
  if (icd) return icd;
  const file = readCodeSetFile<Icd10cmFile>("icd10cm-fy2026.json.gz");
  const entries: CodeEntry[] = file.codes.map(([key, title]) => ({
    key,
    code: displayCode("icd10cm", key),
    title,
    billable: true,
  }));
  const billable = new Set(file.codes.map(([key]) => key));
  // Categories that are headers (not billable themselves) are searchable for browsing.
  for (const [key, title] of file.categories) {
    if (!billable.has(key)) entries.push({ key, code: key, title, billable: false });
  }
  icd = { table: new CodeTable("icd10cm", file.version, entries), file };
  return icd;
}

export function icd10cmTable(): CodeTable {
  return icd10cmData().table;
}

let inclusion: InclusionIndex | null = null;

/** The Tabular List inclusion terms (FY2021, resolved to FY2026 codes) as a search index. */
export function inclusionIndex(): InclusionIndex {
  inclusion ??= new InclusionIndex(readCodeSetFile<InclusionFile>("icd10cm-inclusion-fy2021.json.gz"), icd10cmTable());
  return inclusion;
}

export function hcpcsTable(): CodeTable {
  if (hcpcs) return hcpcs;
  const file = readCodeSetFile<HcpcsFile>("hcpcs-2019-jan.json.gz");
  hcpcs = new CodeTable(
    "hcpcs",
    file.version,
    file.codes.map(([key, kind, long, , termination]) => ({
      key,
      code: key,
      title: long,
      // Modifiers go on procedure lines, never as a line of their own; terminated codes stay readable.
      billable: kind === "p" && termination === "",
    })),
  );
  return hcpcs;
}
