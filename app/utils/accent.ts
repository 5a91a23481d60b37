/**
 * A practice's accent colour (issue 11): stored as #rrggbb, accepted only when white text on it —
 * buttons, the active tab, badges — reads at WCAG AA (4.5:1), which also keeps the accent readable
 * as link text on the white surface. The shell then derives its stronger, softer and dark-mode
 * shades from it, the same way tokens.css derives Murmur's own.
 */
export const DEFAULT_ACCENT = "#3b5bdb";
export const ACCENT_MIN_CONTRAST = 4.5;
const HEX = /^#[0-9a-f]{6}$/;

export function isAccentHex(value: string): boolean {
  return HEX.test(value);
}

function channel(hex: string, i: number): number {
  const c = Number.parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG 2 relative luminance of a #rrggbb colour. */
export function luminance(hex: string): number {
  return 0.2126 * channel(hex, 0) + 0.7152 * channel(hex, 1) + 0.0722 * channel(hex, 2);
}

/** WCAG 2 contrast ratio between two #rrggbb colours (1–21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

export function accentIsReadable(hex: string): boolean {
  return isAccentHex(hex) && contrastRatio(hex, "#ffffff") >= ACCENT_MIN_CONTRAST;
}

/**
 * The stylesheet that puts a practice's accent on every signed-in page, light and dark, with the
 * same selectors (and so the same specificity) as tokens.css; it comes later in the document, so it
 * wins. Null for an absent or unreadable colour, which leaves Murmur's own.
 */
export function accentCss(hex: string | null | undefined): string | null {
  if (!hex || !accentIsReadable(hex)) return null;
  const light = [
    `--mm-accent: ${hex}`,
    `--mm-accent-strong: color-mix(in oklab, ${hex} 82%, black)`,
    "--mm-on-accent: #ffffff",
    `--mm-accent-soft: color-mix(in oklab, ${hex} 12%, var(--mm-surface))`,
  ].join("; ");
  // On dark surfaces the accent is lifted towards white and text on it turns dark.
  const dark = [
    `--mm-accent: color-mix(in oklab, ${hex} 55%, white)`,
    `--mm-accent-strong: color-mix(in oklab, ${hex} 40%, white)`,
    "--mm-on-accent: #0b1020",
    `--mm-accent-soft: color-mix(in oklab, ${hex} 22%, var(--mm-surface))`,
  ].join("; ");
  return `:root { ${light}; }
@media (prefers-color-scheme: dark) { :root:not([data-theme="light"]) { ${dark}; } }
:root[data-theme="dark"] { ${dark}; }`;
}
