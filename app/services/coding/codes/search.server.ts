import { hcpcsTable, icd10cmTable, inclusionIndex } from "./registry.server.ts";
import { codeKey, type SearchResult } from "./table.ts";

export type BuiltInSystem = "icd10cm" | "hcpcs";

export function searchCodes(
  system: BuiltInSystem,
  q: string,
  limit: number,
): { system: BuiltInSystem; version: string; results: SearchResult[] } {
  if (system === "hcpcs") {
    const table = hcpcsTable();
    return { system, version: table.version, results: table.search(q, limit) };
  }
  return { system, version: icd10cmTable().version, results: searchIcd10cm(q, limit) };
}

/**
 * ICD-10-CM like a coder's index (ADR 43): a code or code prefix; otherwise the official titles and
 * the Tabular List's inclusion terms together, closest first (a title and a term of the same code
 * count once, the title's wording shown, the term named). Synonyms and anatomical equivalents apply
 * to both (synonyms.ts).
 */
export function searchIcd10cm(q: string, limit: number): SearchResult[] {
  const table = icd10cmTable();
  const key = codeKey(q.trim());
  if (/^[A-Za-z][0-9A-Za-z]{0,6}$/.test(key) && /\d/.test(key)) return table.search(q, limit);
  const merged = new Map<string, { result: SearchResult; score: number }>();
  for (const { entry, score } of table.scoredSearch(q, limit * 2)) {
    merged.set(entry.code, { result: { code: entry.code, description: entry.title, billable: entry.billable }, score });
  }
  for (const hit of inclusionIndex().search(q, limit * 2)) {
    const had = merged.get(hit.result.code);
    // An inclusion term matching the query's words as well as a title names the code the coder means.
    if (!had || hit.score > had.score) merged.set(hit.result.code, hit);
  }
  return [...merged.values()]
    .sort((a, b) => b.score - a.score || (a.result.code < b.result.code ? -1 : 1))
    .slice(0, limit)
    .map((m) => m.result);
}
