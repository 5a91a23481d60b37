// Tooth numbers and surfaces on dental procedure lines. Claims (ADA) use Universal numbering, so a
// tooth written in FDI is stored in Universal; the quote keeps what the clinician wrote.
import { fdiToUniversal, universalToFdi } from "#app/services/perio/teeth.ts";

export interface ToothMention {
  /** Universal: "1"–"32", or "A"–"T" for primary teeth. */
  tooth: string;
  notation: "universal" | "fdi";
  start: number;
  end: number;
}

// "tooth 14", "tooth #14", "#30", "teeth 3 and 14", "tooth A", "FDI 36", "36 (FDI)".
const TOOTH = /\b(?:teeth|tooth|fdi)\s*#?\s*(\d{1,2}|[A-T])\b|#\s?(\d{1,2})\b/g;
const MORE = /^(?:\s*(?:,|and|&)\s*#?\s*(\d{1,2}))+/;

/**
 * A number 1–32 is Universal unless the sentence says FDI/ISO; 11–48 with a valid FDI quadrant
 * position outside 1–32, or any number when FDI is stated, is FDI.
 */
function universalOf(raw: string, fdiStated: boolean): { tooth: string; notation: "universal" | "fdi" } | null {
  if (/^[A-T]$/.test(raw)) return { tooth: raw, notation: "universal" };
  const n = Number(raw);
  if (!fdiStated && n >= 1 && n <= 32) return { tooth: String(n), notation: "universal" };
  const u = fdiToUniversal(n);
  return u ? { tooth: String(u), notation: "fdi" } : null;
}

export function toothMentions(text: string, from: number, to: number): ToothMention[] {
  const part = text.slice(from, to);
  const fdiStated = /\b(?:fdi|iso)\b/i.test(part);
  const out: ToothMention[] = [];
  for (const m of part.matchAll(TOOTH)) {
    const raw = m[1] ?? m[2]!;
    const first = universalOf(raw, fdiStated);
    const start = from + m.index;
    if (first) out.push({ ...first, start, end: start + m[0].length });
    const rest = MORE.exec(part.slice(m.index + m[0].length));
    if (!rest) continue;
    let offset = m.index + m[0].length;
    for (const n of rest[0].matchAll(/\d{1,2}/g)) {
      const t = universalOf(n[0], fdiStated);
      if (t) out.push({ ...t, start: from + offset + n.index, end: from + offset + n.index + n[0].length });
    }
    offset += rest[0].length;
  }
  return out;
}

const SURFACE_WORDS: Array<[RegExp, string]> = [
  [/\bmesial\b/i, "M"],
  [/\bocclusal\b/i, "O"],
  [/\bdistal\b/i, "D"],
  [/\bbuccal\b/i, "B"],
  [/\blingual\b/i, "L"],
  [/\bincisal\b/i, "I"],
  [/\bfacial\b/i, "F"],
];

/** Surfaces in canonical MODBLIF order: from a code such as "MOD" (capitals) or the surface words. */
export function surfacesOf(sentence: string): string | null {
  const found = new Set<string>();
  for (const m of sentence.matchAll(/\b([MODBLIF]{2,5})\b/g)) for (const c of m[1]!) found.add(c);
  for (const [re, letter] of SURFACE_WORDS) if (re.test(sentence)) found.add(letter);
  const ordered = "MODBLIF".split("").filter((c) => found.has(c));
  return ordered.length > 0 ? ordered.join("").slice(0, 5) : null;
}

/**
 * Lines store the tooth in Universal numbering; FHIR's ex-tooth code system is ISO 3950 (FDI), so
 * exports convert. A value that is not a Universal tooth (an edited free-text tooth) passes unchanged.
 */
export function toothForFhir(tooth: string): string {
  const n = Number(tooth);
  return /^\d{1,2}$/.test(tooth) && n >= 1 && n <= 32 ? String(universalToFdi(n)) : tooth;
}
