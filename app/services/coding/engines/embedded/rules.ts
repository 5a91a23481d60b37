// Outpatient coding rules the embedded engine applies after matching (docs/coding.md "Rules").

/**
 * History of a condition → its "personal history" Z code (or the code for an old condition), by the
 * condition's category prefix; family history → the family-history Z code. A history mention whose
 * category is not listed is not coded.
 */
const HISTORY: Array<[RegExp, string]> = [
  [/^C/, "Z859"],
  [/^I2[12]|^I252/, "I252"],
  [/^I6[3-6]|^G45/, "Z8673"],
  [/^I26/, "Z86711"],
  [/^I82/, "Z86718"],
  [/^N39/, "Z87440"],
  [/^N20/, "Z87442"],
  [/^J1[2-8]/, "Z8701"],
  [/^K2[5-8]/, "Z8711"],
  [/^S[0-9]2/, "Z8781"],
  [/^D[0-3]|^D4[0-8]/, "Z86018"],
  [/^Z/, ""],
];
const FAMILY: Array<[RegExp, string]> = [
  [/^C/, "Z809"],
  [/^I2[0-5]/, "Z8249"],
  [/^I6[3-6]/, "Z823"],
  [/^E1[01]/, "Z833"],
  [/^F3[23]/, "Z8180"],
  [/^J45/, "Z825"],
];

export function historyCode(key: string, family: boolean): string | null {
  for (const [re, code] of family ? FAMILY : HISTORY) if (re.test(key)) return code || null;
  return null;
}

/**
 * Excludes1 pairs (two codes that cannot be reported together) between categories, from the
 * ICD-10-CM Tabular List notes of the categories the engine suggests most. The tabular file is not
 * shipped (docs/coding.md), so this is a curated subset; pairs are flagged, never removed.
 */
const EXCLUDES1: Array<[string, string]> = [
  ["E10", "E11"],
  ["E10", "E13"],
  ["E11", "E13"],
  ["E10", "E08"],
  ["E11", "E08"],
  ["E10", "E09"],
  ["E11", "E09"],
  ["F32", "F31"],
  ["F33", "F31"],
  ["F32", "F30"],
  ["R51", "G43"],
  ["R51", "G44"],
  ["R05", "J41"],
  ["J44", "J43"],
];

export function excludes1(a: string, b: string): boolean {
  const ca = a.slice(0, 3);
  const cb = b.slice(0, 3);
  return EXCLUDES1.some(([x, y]) => (x === ca && y === cb) || (x === cb && y === ca));
}
