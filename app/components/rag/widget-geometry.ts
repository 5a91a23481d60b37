import { ASSISTANT } from "./constants.ts";

// SPEC §2 "Assistant widget" and §5/§9 geometry, pure so it is unit-tested: where the floating
// button may sit, when a drag is a click, how wide the drawer may be, when it is a bottom sheet.

export interface Point {
  x: number;
  y: number;
}
export interface Viewport {
  width: number;
  height: number;
}

/** localStorage keys: the button's position and the drawer's width are remembered per browser. */
export const POSITION_KEY = "murmur.ask.position";
export const WIDTH_KEY = "murmur.ask.width";

/** Distance from the bottom-right corner of the button's first place (a thumb's reach from the edge). */
const DEFAULT_INSET_PX = 24;

/** The button's top-left corner kept at least 8 px inside the window (SPEC §2). */
export function clampButton(point: Point, viewport: Viewport): Point {
  const margin = ASSISTANT.buttonMarginPx;
  const maxX = Math.max(margin, viewport.width - ASSISTANT.buttonPx - margin);
  const maxY = Math.max(margin, viewport.height - ASSISTANT.buttonPx - margin);
  return {
    x: Math.round(Math.min(Math.max(point.x, margin), maxX)),
    y: Math.round(Math.min(Math.max(point.y, margin), maxY)),
  };
}

/** Bottom right (SPEC §2), inside the window. */
export function defaultButtonPosition(viewport: Viewport): Point {
  const inset = ASSISTANT.buttonPx + DEFAULT_INSET_PX;
  return clampButton({ x: viewport.width - inset, y: viewport.height - inset }, viewport);
}

/** SPEC §2: a press counts as a click only when the pointer moved less than 5 px. */
export function isClick(start: Point, end: Point): boolean {
  return Math.hypot(end.x - start.x, end.y - start.y) < ASSISTANT.dragThresholdPx;
}

/** SPEC §5: 360 px minimum, 92% of the window maximum (the maximum wins on a narrow window). */
export function clampDrawerWidth(width: number, windowWidth: number): number {
  const max = Math.floor(windowWidth * ASSISTANT.drawerMaxShare);
  return Math.min(Math.max(Math.round(width), ASSISTANT.drawerMinPx), max);
}

/** SPEC §9: below 640 px the drawer is a full-height bottom sheet. */
export function isCompact(windowWidth: number): boolean {
  return windowWidth < ASSISTANT.compactBelowPx;
}

/** A remembered position, or null when absent or not two finite numbers (storage is user-editable). */
export function parseStoredPosition(raw: string | null): Point | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as unknown;
    if (typeof value !== "object" || value === null) return null;
    const { x, y } = value as Record<string, unknown>;
    return typeof x === "number" && typeof y === "number" && Number.isFinite(x) && Number.isFinite(y) ? { x, y } : null;
  } catch {
    return null;
  }
}

/** A remembered drawer width, or the 600 px default. */
export function parseStoredWidth(raw: string | null): number {
  const value = Number(raw);
  return raw && Number.isFinite(value) && value > 0 ? value : ASSISTANT.drawerDefaultPx;
}
