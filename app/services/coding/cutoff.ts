// The confidence cut-off (ADR 43): few codes, the right ones. A suggestion is "above the cut-off"
// when its calibrated confidence (the learned ranker's probability that a coder codes it) reaches
// CONFIDENCE_CUTOFF, or when the embedded engine says so for a code the note's Assessment or Plan
// states; never more than MAX_ABOVE_CUTOFF per system. The rest stay available behind "show more".

/**
 * Chosen on held-out train (last 100 reports, lexicon and rankers trained on the first 400): the
 * cut-off that maximises F1 of the above-cut-off set against the coders' codes (docs/coding.md).
 */
export const CONFIDENCE_CUTOFF = 0.3;
/** At most this many suggestions above the cut-off per system (case reports carry ≈ 10 codes). */
export const MAX_ABOVE_CUTOFF = 15;

/**
 * Sets `above_cutoff` on every suggestion, in the order given (best first): an engine's own decision
 * is kept when it made one, otherwise confidence ≥ CONFIDENCE_CUTOFF; then at most MAX_ABOVE_CUTOFF
 * per system stay above.
 */
export function applyCutoff<T extends { system: string; confidence: number; above_cutoff?: boolean }>(
  suggestions: T[],
): Array<T & { above_cutoff: boolean }> {
  const above = new Map<string, number>();
  return suggestions.map((s) => {
    let isAbove = s.above_cutoff ?? s.confidence >= CONFIDENCE_CUTOFF;
    if (isAbove) {
      const n = above.get(s.system) ?? 0;
      if (n >= MAX_ABOVE_CUTOFF) isAbove = false;
      else above.set(s.system, n + 1);
    }
    return { ...s, above_cutoff: isAbove };
  });
}
