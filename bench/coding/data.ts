import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";

export interface CodiEspDoc {
  id: string;
  split: "train" | "dev";
  text: string;
  /** Dotless, upper case. */
  gold: string[];
}

export const codiespPath = resolve(import.meta.dirname, "../../../shared/data/coding/codiesp/codiesp_en_train_dev.jsonl");

export function loadCodiEsp(split: "train" | "dev"): CodiEspDoc[] {
  const path = process.env.CODIESP_PATH ?? codiespPath;
  if (!existsSync(path)) throw new Error(`CodiEsp not found at ${path} (set CODIESP_PATH)`);
  return readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { id: string; split: "train" | "dev"; text_en: string; dx_gold: string[] })
    .filter((r) => r.split === split)
    .map((r) => ({ id: r.id, split: r.split, text: r.text_en, gold: [...new Set(r.dx_gold)] }));
}
