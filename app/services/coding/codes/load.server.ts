import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";

// The committed code-set files (scripts/build-code-sets.ts). Beside this module in development and
// tests; from the project's app/ folder when the server runs the built bundle (same rule as the
// clinical speech model).
function dataDir(): string {
  const candidates = [fileURLToPath(new URL("../data/", import.meta.url)), resolve("app/services/coding/data")];
  const found = candidates.find((dir) => existsSync(join(dir, "icd10cm-fy2026.json.gz")));
  if (!found) throw new Error(`coding data files not found in ${candidates.join(" or ")}`);
  return found;
}

export function readCodeSetFile<T>(name: string): T {
  return JSON.parse(gunzipSync(readFileSync(join(dataDir(), name))).toString("utf8")) as T;
}

export interface Icd10cmFile {
  system: "icd10cm";
  version: string;
  effective: string;
  source: string;
  codes: Array<[string, string]>;
  categories: Array<[string, string, string, number]>;
  sections: Array<[string, number, string]>;
  chapters: Array<[number, string]>;
  neoplasm: Array<[string, string[]]>;
}

export interface HcpcsFile {
  system: "hcpcs";
  version: string;
  effective: string;
  source: string;
  /** [code, "p" procedure | "m" modifier, long, short, termination yyyymmdd or ""] */
  codes: Array<[string, "p" | "m", string, string, string]>;
}
