// The auto-advance path for keyboard and voice entry (issue 14 "Keyboard entry"): the standard
// order is upper facial 1→16, upper lingual 16→1, lower lingual 17→32, lower facial 32→17. Inside a
// tooth the sites follow the direction of travel across the chart, so the cursor never jumps back.

import { getTooth, type PerioChartData } from "./model.ts";
import type { Site } from "./teeth.ts";

export type PathSegment = { arch: "upper" | "lower"; surface: "facial" | "lingual"; from: number; to: number };
export type PathStop = { tooth: number; site: Site };

export const STANDARD_PATH: readonly PathSegment[] = [
  { arch: "upper", surface: "facial", from: 1, to: 16 },
  { arch: "upper", surface: "lingual", from: 16, to: 1 },
  { arch: "lower", surface: "lingual", from: 17, to: 32 },
  { arch: "lower", surface: "facial", from: 32, to: 17 },
];

/** The alternative some offices use: each arch lingual first. */
export const LINGUAL_FIRST_PATH: readonly PathSegment[] = [
  { arch: "upper", surface: "lingual", from: 1, to: 16 },
  { arch: "upper", surface: "facial", from: 16, to: 1 },
  { arch: "lower", surface: "facial", from: 17, to: 32 },
  { arch: "lower", surface: "lingual", from: 32, to: 17 },
];

export const PATHS = { standard: STANDARD_PATH, lingual_first: LINGUAL_FIRST_PATH } as const;
export type PathName = keyof typeof PATHS;

/** True when moving from `tooth` to `next` (±1) goes towards the midline. */
function towardsMidline(tooth: number, step: number): boolean {
  // Midlines sit between 8|9 (upper) and 24|25 (lower).
  if (tooth <= 8 || (tooth >= 17 && tooth <= 24)) return step > 0;
  return step < 0;
}

function siteOrder(surface: PathSegment["surface"], tooth: number, step: number): Site[] {
  const order: Site[] = surface === "facial" ? ["DB", "B", "MB"] : ["DL", "L", "ML"];
  return towardsMidline(tooth, step) ? order : order.reverse();
}

/** Every stop of the path, skipping missing teeth when a chart is given. */
export function buildPath(segments: readonly PathSegment[] = STANDARD_PATH, chart?: PerioChartData): PathStop[] {
  const stops: PathStop[] = [];
  for (const seg of segments) {
    const step = seg.to >= seg.from ? 1 : -1;
    for (let t = seg.from; t !== seg.to + step; t += step) {
      if (chart && getTooth(chart, t).missing) continue;
      for (const site of siteOrder(seg.surface, t, step)) stops.push({ tooth: t, site });
    }
  }
  return stops;
}

export function indexOfStop(path: readonly PathStop[], stop: PathStop): number {
  return path.findIndex((p) => p.tooth === stop.tooth && p.site === stop.site);
}

/** The stop after `stop` (or null at the end of the path). */
export function nextStop(path: readonly PathStop[], stop: PathStop): PathStop | null {
  const i = indexOfStop(path, stop);
  return i >= 0 && i + 1 < path.length ? (path[i + 1] as PathStop) : null;
}

/** The first stop of the next tooth on the path ("next tooth"). */
export function nextToothStop(path: readonly PathStop[], stop: PathStop): PathStop | null {
  const i = indexOfStop(path, stop);
  for (let j = i + 1; j < path.length; j++) {
    const p = path[j] as PathStop;
    if (p.tooth !== stop.tooth) return p;
  }
  return null;
}

export function previousStop(path: readonly PathStop[], stop: PathStop): PathStop | null {
  const i = indexOfStop(path, stop);
  return i > 0 ? (path[i - 1] as PathStop) : null;
}
