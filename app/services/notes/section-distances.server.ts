import { runCpu } from "#app/services/cpu/pool.server.ts";
import { editDistance } from "./edit-distance.ts";
import { type NoteRow, sectionsOf } from "./note-rows.server.ts";

/** Below this many characters in all (draft + signed) the distances cost well under a millisecond: inline. */
export const INLINE_DISTANCE_CHARS = 20_000;

export type DistancePairs = [string, string, string][];

/** `[key, generated draft, current text]` for every section of the note as it would be signed. */
export function distancePairs(row: Pick<NoteRow, "content" | "sections">): DistancePairs {
  const generated = new Map(sectionsOf(row.sections).map((s) => [s.key, s.text]));
  return sectionsOf(row.content).map((s) => [s.key, generated.get(s.key) ?? "", s.text]);
}

/** Per-section edit distances, on a worker thread when the note is long (issue 25). */
export async function sectionDistances(pairs: DistancePairs): Promise<Record<string, number>> {
  const size = pairs.reduce((sum, [, a, b]) => sum + a.length + b.length, 0);
  if (size <= INLINE_DISTANCE_CHARS) return Object.fromEntries(pairs.map(([key, a, b]) => [key, editDistance(a, b)]));
  return runCpu("editDistances", pairs);
}

export const samePairs = (a: DistancePairs, b: DistancePairs) =>
  a.length === b.length && a.every((p, i) => p[0] === b[i]?.[0] && p[1] === b[i]?.[1] && p[2] === b[i]?.[2]);
