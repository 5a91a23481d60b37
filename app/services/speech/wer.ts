import { words } from "#app/services/speech/text-normalise.ts";

export interface WordErrors {
  substitutions: number;
  deletions: number;
  insertions: number;
  /** Words in the reference: the denominator of the word error rate. */
  referenceWords: number;
}

/** Word-level Levenshtein alignment of a hypothesis against a reference, both normalised first. */
export function wordErrors(reference: string, hypothesis: string): WordErrors {
  const ref = words(reference);
  const hyp = words(hypothesis);
  // cost[j] and ops[j] hold the best alignment of ref[0..i) with hyp[0..j).
  type Cell = { cost: number; s: number; d: number; n: number };
  let previous: Cell[] = hyp.map((_, j) => ({ cost: j, s: 0, d: 0, n: j }));
  previous.push({ cost: hyp.length, s: 0, d: 0, n: hyp.length });
  for (let i = 1; i <= ref.length; i++) {
    const current: Cell[] = [{ cost: i, s: 0, d: i, n: 0 }];
    for (let j = 1; j <= hyp.length; j++) {
      const diagonal = previous[j - 1] as Cell;
      const up = previous[j] as Cell;
      const left = current[j - 1] as Cell;
      const same = ref[i - 1] === hyp[j - 1];
      const options: Cell[] = [
        { ...diagonal, cost: diagonal.cost + (same ? 0 : 1), s: diagonal.s + (same ? 0 : 1) },
        { ...up, cost: up.cost + 1, d: up.d + 1 },
        { ...left, cost: left.cost + 1, n: left.n + 1 },
      ];
      current.push(options.reduce((best, o) => (o.cost < best.cost ? o : best)));
    }
    previous = current;
  }
  const last = previous[hyp.length] as Cell;
  return { substitutions: last.s, deletions: last.d, insertions: last.n, referenceWords: ref.length };
}

export function sumErrors(all: readonly WordErrors[]): WordErrors {
  return all.reduce(
    (a, b) => ({
      substitutions: a.substitutions + b.substitutions,
      deletions: a.deletions + b.deletions,
      insertions: a.insertions + b.insertions,
      referenceWords: a.referenceWords + b.referenceWords,
    }),
    { substitutions: 0, deletions: 0, insertions: 0, referenceWords: 0 },
  );
}

/** (S + D + I) / N; can exceed 1 when the hypothesis adds many words. */
export function errorRate(errors: WordErrors): number {
  if (errors.referenceWords === 0) return errors.insertions > 0 ? 1 : 0;
  return (errors.substitutions + errors.deletions + errors.insertions) / errors.referenceWords;
}

export function wer(reference: string, hypothesis: string): number {
  return errorRate(wordErrors(reference, hypothesis));
}
