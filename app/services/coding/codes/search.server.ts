import { hcpcsTable, icd10cmTable } from "./registry.server.ts";
import type { SearchResult } from "./table.ts";

export type BuiltInSystem = "icd10cm" | "hcpcs";

export function searchCodes(
  system: BuiltInSystem,
  q: string,
  limit: number,
): { system: BuiltInSystem; version: string; results: SearchResult[] } {
  const table = system === "icd10cm" ? icd10cmTable() : hcpcsTable();
  return { system, version: table.version, results: table.search(q, limit) };
}
