// Okabe & Ito's palette: told apart with every common colour-vision deficiency, and on light and
// dark surfaces (ADR 0016). Series are also told apart by their legend text and table, never by
// colour alone.
export const CHART_COLORS = {
  blue: "#0072B2",
  orange: "#E69F00",
  green: "#009E73",
  purple: "#CC79A7",
} as const;
