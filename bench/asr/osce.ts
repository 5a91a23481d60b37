import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { SHARED_DATA } from "./datasets.ts";

/**
 * The shared OSCE interviews (Fareez et al. 2022, CC BY 4.0), read in place at bench time only.
 * Split (issue 26), fixed: diarisation and decoder settings are tuned on OSCE_TUNING only;
 * OSCE_HELD_OUT is scored, never tuned on.
 */
export const OSCE_TUNING = ["CAR0002", "GAS0002"] as const;
export const OSCE_HELD_OUT = ["CAR0004", "CAR0005", "GAS0003", "MSK0004"] as const;

export function osceDir(): string {
  return join(SHARED_DATA, "osce-fareez");
}

export function osceCacheDir(): string {
  return resolve(import.meta.dirname, "../results/osce-cache");
}

export interface OsceTurn {
  role: "clinician" | "patient";
  text: string;
}

/** `D:` / `P:` paragraphs → turns; a line without a prefix continues the previous turn. */
export function parseOsceTranscript(text: string): OsceTurn[] {
  const turns: OsceTurn[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "") continue;
    const match = /^([DP])\s*:\s*(.*)$/.exec(line);
    if (match) turns.push({ role: match[1] === "D" ? "clinician" : "patient", text: match[2] ?? "" });
    else {
      const last = turns.at(-1);
      if (last) last.text += ` ${line}`;
    }
  }
  return turns;
}

export function readOsceTranscript(id: string): OsceTurn[] {
  return parseOsceTranscript(readFileSync(join(osceDir(), "transcripts", `${id}.txt`), "utf8"));
}
