// ACI-Bench read in place from the shared data folder (never copied into the repository).
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export interface AciEncounter {
  dataset: string;
  id: string;
  dialogue: string;
  note: string;
  /** From the split's metadata file: what the app knows of the patient (the visit's patient record). */
  patientSex?: string;
}

export type AciSplit = "train" | "valid";

/** MURMUR_SHARED_DATA, else <repo>/../shared/data, else /work/shared/data; null when none holds aci-bench. */
export function sharedDataDir(): string | null {
  const candidates = [
    process.env.MURMUR_SHARED_DATA,
    resolve(import.meta.dirname, "../../../shared/data"),
    "/work/shared/data",
  ].filter((dir): dir is string => Boolean(dir));
  return candidates.find((dir) => existsSync(join(dir, "aci-bench", "challenge_data"))) ?? null;
}

export function aciBenchDir(): string | null {
  const shared = sharedDataDir();
  return shared ? join(shared, "aci-bench") : null;
}

export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((cell) => cell.length > 0));
}

/** Rows of a CSV with a header, as objects keyed by column name. */
export function readCsvObjects(path: string): Record<string, string>[] {
  const [header = [], ...rows] = parseCsv(readFileSync(path, "utf8"));
  return rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i] ?? ""])));
}

export function loadAciSplit(split: AciSplit): AciEncounter[] {
  const dir = aciBenchDir();
  if (!dir) return [];
  const metadataPath = join(dir, "challenge_data", `${split}_metadata.csv`);
  const sex = new Map(
    existsSync(metadataPath)
      ? readCsvObjects(metadataPath).map((row) => [row.encounter_id ?? "", (row.patient_gender ?? "").trim()])
      : [],
  );
  return readCsvObjects(join(dir, "challenge_data", `${split}.csv`)).map((row) => {
    const id = row.encounter_id ?? "";
    const encounter: AciEncounter = { dataset: row.dataset ?? "", id, dialogue: row.dialogue ?? "", note: row.note ?? "" };
    if (sex.get(id)) encounter.patientSex = sex.get(id);
    return encounter;
  });
}
