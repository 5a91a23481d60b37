// ROUGE exactly as ACI-Bench scores notes: HF `evaluate` rouge over rouge-score 0.1.2 with its
// defaults (lowercase, every run of non [a-z0-9] characters becomes a space, no stemming). The
// corpus tables' "ROUGE-L" column is rougeLsum: summary-level LCS over newline-split sentences.

export interface RougeScore {
  precision: number;
  recall: number;
  fmeasure: number;
}

export interface NoteRouge {
  rouge1: RougeScore;
  rouge2: RougeScore;
  rougeLsum: RougeScore;
}

export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .split(/\s+/)
    .filter((token) => /^[a-z0-9]+$/.test(token));
}

function score(hits: number, targetCount: number, predictionCount: number): RougeScore {
  const precision = predictionCount > 0 ? hits / predictionCount : 0;
  const recall = targetCount > 0 ? hits / targetCount : 0;
  const fmeasure = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, fmeasure };
}

function ngramCounts(tokens: string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const key = tokens.slice(i, i + n).join(" ");
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

export function rougeN(target: string, prediction: string, n: number): RougeScore {
  const targetCounts = ngramCounts(tokenize(target), n);
  const predictionCounts = ngramCounts(tokenize(prediction), n);
  let hits = 0;
  for (const [gram, count] of targetCounts) hits += Math.min(count, predictionCounts.get(gram) ?? 0);
  let targetTotal = 0;
  for (const count of targetCounts.values()) targetTotal += count;
  let predictionTotal = 0;
  for (const count of predictionCounts.values()) predictionTotal += count;
  return score(hits, targetTotal, predictionTotal);
}

/** rouge-score's _lcs_table + _backtrack_norec: indices into `ref` of one LCS with `can`. */
function lcsIndices(ref: string[], can: string[]): number[] {
  const cols = can.length + 1;
  const table = new Uint32Array((ref.length + 1) * cols);
  for (let i = 1; i <= ref.length; i++) {
    for (let j = 1; j <= can.length; j++) {
      table[i * cols + j] =
        ref[i - 1] === can[j - 1]
          ? (table[(i - 1) * cols + j - 1] ?? 0) + 1
          : Math.max(table[(i - 1) * cols + j] ?? 0, table[i * cols + j - 1] ?? 0);
    }
  }
  const indices: number[] = [];
  let i = ref.length;
  let j = can.length;
  while (i > 0 && j > 0) {
    if (ref[i - 1] === can[j - 1]) {
      indices.push(i - 1);
      i -= 1;
      j -= 1;
    } else if ((table[i * cols + j - 1] ?? 0) > (table[(i - 1) * cols + j] ?? 0)) j -= 1;
    else i -= 1;
  }
  return indices.reverse();
}

function sentences(text: string): string[][] {
  return text
    .split("\n")
    .filter((line) => line.length > 0)
    .map(tokenize);
}

/** rouge-score's _summary_level_lcs: union LCS of each reference sentence against every predicted one, hits clipped by counts. */
export function rougeLsum(target: string, prediction: string): RougeScore {
  const refSentences = sentences(target);
  const canSentences = sentences(prediction);
  if (refSentences.length === 0 || canSentences.length === 0) return score(0, 0, 0);
  const m = refSentences.reduce((sum, s) => sum + s.length, 0);
  const n = canSentences.reduce((sum, s) => sum + s.length, 0);
  if (m === 0 || n === 0) return score(0, 0, 0);
  const refCounts = new Map<string, number>();
  const canCounts = new Map<string, number>();
  for (const s of refSentences) for (const t of s) refCounts.set(t, (refCounts.get(t) ?? 0) + 1);
  for (const s of canSentences) for (const t of s) canCounts.set(t, (canCounts.get(t) ?? 0) + 1);
  let hits = 0;
  for (const ref of refSentences) {
    const union = new Set<number>();
    for (const can of canSentences) for (const index of lcsIndices(ref, can)) union.add(index);
    for (const index of [...union].sort((a, b) => a - b)) {
      const token = ref[index] as string;
      const c = canCounts.get(token) ?? 0;
      const r = refCounts.get(token) ?? 0;
      if (c > 0 && r > 0) {
        hits += 1;
        canCounts.set(token, c - 1);
        refCounts.set(token, r - 1);
      }
    }
  }
  return score(hits, m, n);
}

export function scoreNote(target: string, prediction: string): NoteRouge {
  return {
    rouge1: rougeN(target, prediction, 1),
    rouge2: rougeN(target, prediction, 2),
    rougeLsum: rougeLsum(target, prediction),
  };
}

/** Mean F-measure ×100 over notes, as the corpus tables report it. */
export function meanRouge(pairs: { target: string; prediction: string }[]): { r1: number; r2: number; rlsum: number } {
  let r1 = 0;
  let r2 = 0;
  let rlsum = 0;
  for (const { target, prediction } of pairs) {
    const s = scoreNote(target, prediction);
    r1 += s.rouge1.fmeasure;
    r2 += s.rouge2.fmeasure;
    rlsum += s.rougeLsum.fmeasure;
  }
  const k = pairs.length || 1;
  return { r1: (100 * r1) / k, r2: (100 * r2) / k, rlsum: (100 * rlsum) / k };
}
