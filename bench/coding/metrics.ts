// CodiEsp-D metrics: MAP (the track's metric: average precision of each document's ranked list,
// over all its gold codes), precision@5, recall@15; "category" compares 3-character categories.

export function averagePrecision(ranked: string[], gold: Set<string>): number {
  if (gold.size === 0) return 0;
  let hits = 0;
  let sum = 0;
  ranked.forEach((code, i) => {
    if (gold.has(code)) {
      hits++;
      sum += hits / (i + 1);
    }
  });
  return sum / gold.size;
}

export function precisionAt(ranked: string[], gold: Set<string>, k: number): number {
  return ranked.slice(0, k).filter((c) => gold.has(c)).length / k;
}

export function recallAt(ranked: string[], gold: Set<string>, k: number): number {
  return gold.size === 0 ? 0 : ranked.slice(0, k).filter((c) => gold.has(c)).length / gold.size;
}

/** Codes → their categories, first occurrence kept (the rank of a category is its best code's). */
export function categories(codes: string[]): string[] {
  return [...new Set(codes.map((c) => c.replace(".", "").slice(0, 3)))];
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}
