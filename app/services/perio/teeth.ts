// Tooth numbering and anatomy for the periodontal chart (issue 14 "The chart").
// Universal 1–32 is the storage key everywhere; FDI 11–48 is a display/input mapping.

export const SITES = ["DB", "B", "MB", "DL", "L", "ML"] as const;
export type Site = (typeof SITES)[number];
export const FACIAL_SITES: readonly Site[] = ["DB", "B", "MB"];
export const LINGUAL_SITES: readonly Site[] = ["DL", "L", "ML"];
/** Proximal sites: the 2017 classification stages from interdental attachment loss. */
export const INTERDENTAL_SITES: readonly Site[] = ["DB", "MB", "DL", "ML"];

export type Numbering = "universal" | "fdi";
export const UNIVERSAL_TEETH: readonly number[] = Array.from({ length: 32 }, (_, i) => i + 1);

export function isUniversalTooth(n: unknown): n is number {
  return typeof n === "number" && Number.isInteger(n) && n >= 1 && n <= 32;
}

/** Universal → FDI: 1–8 are 18…11, 9–16 are 21…28, 17–24 are 38…31, 25–32 are 41…48. */
export function universalToFdi(tooth: number): number {
  if (!isUniversalTooth(tooth)) throw new RangeError(`invalid Universal tooth ${tooth}`);
  if (tooth <= 8) return 10 + (9 - tooth);
  if (tooth <= 16) return 20 + (tooth - 8);
  if (tooth <= 24) return 30 + (25 - tooth);
  return 40 + (tooth - 24);
}

export function fdiToUniversal(fdi: number): number | null {
  if (!Number.isInteger(fdi)) return null;
  const quadrant = Math.floor(fdi / 10);
  const position = fdi % 10;
  if (position < 1 || position > 8) return null;
  switch (quadrant) {
    case 1:
      return 9 - position;
    case 2:
      return 8 + position;
    case 3:
      return 25 - position;
    case 4:
      return 24 + position;
    default:
      return null;
  }
}

export function toothLabel(tooth: number, numbering: Numbering): string {
  return String(numbering === "fdi" ? universalToFdi(tooth) : tooth);
}

/** Parses a tooth number typed or spoken in the given numbering; null when it is not a tooth. */
export function parseTooth(value: number, numbering: Numbering): number | null {
  if (numbering === "fdi") return fdiToUniversal(value);
  return isUniversalTooth(value) ? value : null;
}

export function isUpper(tooth: number): boolean {
  return tooth <= 16;
}

/** Position 1 (central incisor) … 8 (third molar) within its quadrant. */
export function positionInQuadrant(tooth: number): number {
  return universalToFdi(tooth) % 10;
}

export type ToothKind = "incisor" | "canine" | "premolar" | "molar";
export function toothKind(tooth: number): ToothKind {
  const p = positionInQuadrant(tooth);
  if (p <= 2) return "incisor";
  if (p === 3) return "canine";
  if (p <= 5) return "premolar";
  return "molar";
}

/** Right quadrants (1–8, 25–32) are drawn on the viewer's left: the patient faces the viewer. */
export function isPatientRight(tooth: number): boolean {
  return tooth <= 8 || tooth >= 25;
}

/**
 * Where a furcation can be graded. Upper molars: the buccal entrance and the mesial and distal ones,
 * probed from the palate (ML, DL). Lower molars: buccal and lingual. Upper first premolars (two roots):
 * mesial and distal, probed from the palate. Implants have none (checked in validation).
 */
export function furcationSites(tooth: number): readonly Site[] {
  const p = positionInQuadrant(tooth);
  if (isUpper(tooth)) {
    if (p >= 6) return ["B", "ML", "DL"];
    if (p === 4) return ["ML", "DL"];
    return [];
  }
  return p >= 6 ? ["B", "L"] : [];
}
