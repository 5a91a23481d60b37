/**
 * Word diarisation error (issue 26): of the words the engine got right (aligned to an equal
 * reference word by a minimum-edit alignment), the share attributed to the wrong role. A word
 * with no role (null) counts as wrong: saying nothing about the speaker is not right either.
 */
export interface RoleWord {
  word: string;
  role: string | null;
}

export interface DiarisationErrors {
  correctWords: number;
  wrongRole: number;
}

export function diarisationErrors(reference: readonly RoleWord[], hypothesis: readonly RoleWord[]): DiarisationErrors {
  const n = reference.length;
  const m = hypothesis.length;
  // Edit distance table with back-pointers (0 diagonal, 1 deletion, 2 insertion).
  const cost = new Uint32Array((n + 1) * (m + 1));
  const move = new Uint8Array((n + 1) * (m + 1));
  for (let i = 1; i <= n; i++) {
    cost[i * (m + 1)] = i;
    move[i * (m + 1)] = 1;
  }
  for (let j = 1; j <= m; j++) {
    cost[j] = j;
    move[j] = 2;
  }
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const same = reference[i - 1]?.word === hypothesis[j - 1]?.word;
      const diagonal = (cost[(i - 1) * (m + 1) + j - 1] as number) + (same ? 0 : 1);
      const deletion = (cost[(i - 1) * (m + 1) + j] as number) + 1;
      const insertion = (cost[i * (m + 1) + j - 1] as number) + 1;
      const best = Math.min(diagonal, deletion, insertion);
      cost[i * (m + 1) + j] = best;
      move[i * (m + 1) + j] = best === diagonal ? 0 : best === deletion ? 1 : 2;
    }
  }
  let correctWords = 0;
  let wrongRole = 0;
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    const step = move[i * (m + 1) + j];
    if (i > 0 && j > 0 && step === 0) {
      if (reference[i - 1]?.word === hypothesis[j - 1]?.word) {
        correctWords++;
        if (reference[i - 1]?.role !== hypothesis[j - 1]?.role) wrongRole++;
      }
      i--;
      j--;
    } else if (i > 0 && (j === 0 || step === 1)) i--;
    else j--;
  }
  return { correctWords, wrongRole };
}
