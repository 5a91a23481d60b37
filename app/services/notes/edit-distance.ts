/**
 * Levenshtein distance in characters (insertions, deletions, substitutions), the per-section
 * quality figure stored on a signed version (issue 6: "per-section edit distance between draft and
 * signed note"). Two rows of memory; code points, so an accented letter counts once.
 */
export function editDistance(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  if (x.length === 0) return y.length;
  if (y.length === 0) return x.length;
  let prev = new Uint32Array(y.length + 1);
  let curr = new Uint32Array(y.length + 1);
  for (let j = 0; j <= y.length; j += 1) prev[j] = j;
  for (let i = 1; i <= x.length; i += 1) {
    curr[0] = i;
    const xi = x[i - 1];
    for (let j = 1; j <= y.length; j += 1) {
      const cost = xi === y[j - 1] ? 0 : 1;
      curr[j] = Math.min((prev[j] ?? 0) + 1, (curr[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
    }
    [prev, curr] = [curr, prev];
  }
  return prev[y.length] ?? 0;
}
