import { isPatientRight, type Site } from "#app/services/perio/teeth.ts";

// How the chart is drawn: the patient faces the viewer, so the patient's right (teeth 1–8, 25–32)
// is on the viewer's left; upper arch 1→16 and lower arch 32→17 from left to right. Inside a tooth
// the distal site is on the side away from the midline.

export const UPPER_TEETH = Array.from({ length: 16 }, (_, i) => i + 1);
export const LOWER_TEETH = Array.from({ length: 16 }, (_, i) => 32 - i);

export type Surface = "facial" | "lingual";

export function displaySites(tooth: number, surface: Surface): Site[] {
  const order: Site[] = surface === "facial" ? ["DB", "B", "MB"] : ["DL", "L", "ML"];
  return isPatientRight(tooth) ? order : [...order].reverse();
}

/** Colour band of a probing depth (issue 14: thresholds at 4 mm and 6 mm). */
export function pdBand(pd: number | null): "none" | "ok" | "warn" | "deep" {
  if (pd === null) return "none";
  if (pd >= 6) return "deep";
  if (pd >= 4) return "warn";
  return "ok";
}
