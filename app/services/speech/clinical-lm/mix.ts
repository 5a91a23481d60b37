/**
 * Linear interpolation of two trigram models written as one backoff (ARPA) model, the way SRILM's
 * `ngram -mix-lm` does: every listed n-gram gets λ·P_a + (1 − λ)·P_b (each model with its own
 * backoff), and each history's backoff weight is recomputed so its distribution sums to one.
 * Unlisted n-grams fall back to the mixed lower order, which approximates the true mixture.
 */
export type CondProb = (words: readonly string[]) => number;

export interface MixInput {
  /** Vocabulary of the result, without <s> (a history only). */
  vocabulary: readonly string[];
  /** Bigrams and trigrams to list ("w1 w2", "w1 w2 w3"); every trigram's "w1 w2" must be listed too. */
  bigrams: readonly string[];
  trigrams: readonly string[];
  /** P(last word | the words before it), each a full backoff model. */
  a: CondProb;
  b: CondProb;
  lambda: number;
}

export interface ArpaRow {
  gram: string;
  logp: number;
  logBow: number | null;
}

const FLOOR = 1e-12;

export function mixModels(input: MixInput): ArpaRow[][] {
  const { lambda, a, b } = input;
  const mix = (words: readonly string[]) => lambda * a(words) + (1 - lambda) * b(words);

  const uni = new Map<string, number>();
  let total = 0;
  for (const w of input.vocabulary) {
    const p = Math.max(mix([w]), FLOOR);
    uni.set(w, p);
    total += p;
  }
  for (const [w, p] of uni) uni.set(w, p / total);

  const bi = new Map<string, number>();
  const biByHistory = new Map<string, string[]>();
  for (const gram of input.bigrams) {
    const words = gram.split(" ");
    bi.set(gram, Math.max(mix(words), FLOOR));
    const h = words[0] as string;
    const list = biByHistory.get(h);
    if (list) list.push(words[1] as string);
    else biByHistory.set(h, [words[1] as string]);
  }
  const uniBow = new Map<string, number>();
  for (const [h, followers] of biByHistory)
    uniBow.set(h, backoff(followers.map((w) => [bi.get(`${h} ${w}`) ?? 0, uni.get(w) ?? 0])));
  const biProb = (h: string, w: string) => bi.get(`${h} ${w}`) ?? (uniBow.get(h) ?? 1) * (uni.get(w) ?? FLOOR);

  const tri = new Map<string, number>();
  const triByHistory = new Map<string, string[]>();
  for (const gram of input.trigrams) {
    const words = gram.split(" ");
    tri.set(gram, Math.max(mix(words), FLOOR));
    const h = `${words[0]} ${words[1]}`;
    const list = triByHistory.get(h);
    if (list) list.push(words[2] as string);
    else triByHistory.set(h, [words[2] as string]);
  }
  const biBow = new Map<string, number>();
  for (const [h, followers] of triByHistory) {
    const h1 = h.slice(h.indexOf(" ") + 1);
    biBow.set(h, backoff(followers.map((w) => [tri.get(`${h} ${w}`) ?? 0, biProb(h1, w)])));
  }

  const log = (p: number) => Math.log10(Math.max(p, FLOOR));
  const unigrams: ArpaRow[] = [{ gram: "<s>", logp: -99, logBow: log(uniBow.get("<s>") ?? 1) }];
  for (const [w, p] of uni) unigrams.push({ gram: w, logp: log(p), logBow: log(uniBow.get(w) ?? 1) });
  const bigrams: ArpaRow[] = [...bi].map(([gram, p]) => ({ gram, logp: log(p), logBow: log(biBow.get(gram) ?? 1) }));
  const trigrams: ArpaRow[] = [...tri].map(([gram, p]) => ({ gram, logp: log(p), logBow: null }));
  return [unigrams, bigrams, trigrams];
}

/** (1 − Σ listed P(w|h)) / (1 − Σ listed P_lower(w)), kept positive when rounding makes either side ≤ 0. */
function backoff(pairs: readonly [number, number][]): number {
  let listed = 0;
  let lower = 0;
  for (const [p, q] of pairs) {
    listed += p;
    lower += q;
  }
  return Math.max(1 - listed, 1e-6) / Math.max(1 - lower, 1e-6);
}

/** ARPA text (pocketsphinx reads it directly). */
export function formatArpaRows(sections: readonly ArpaRow[][], header: string): string {
  const lines: string[] = header.split("\n").map((l) => `# ${l}`);
  lines.push("", "\\data\\");
  sections.forEach((rows, i) => {
    lines.push(`ngram ${i + 1}=${rows.length}`);
  });
  sections.forEach((rows, i) => {
    lines.push("", `\\${i + 1}-grams:`);
    for (const row of rows)
      lines.push(`${row.logp.toFixed(4)}\t${row.gram}${row.logBow === null ? "" : `\t${row.logBow.toFixed(4)}`}`);
  });
  lines.push("", "\\end\\", "");
  return lines.join("\n");
}
