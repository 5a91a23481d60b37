/**
 * A trigram language model in ARPA format, estimated with interpolated Kneser-Ney (one absolute
 * discount per order, D = n1 / (n1 + 2·n2)). Kneser-Ney's continuation counts suit a corpus of a
 * few hundred sentences: a word seen after many different words gets the lower-order mass, not one
 * that is frequent only inside a single repeated phrase. Interpolated estimates are written as
 * backoff form (seen n-grams carry their interpolated probability, the backoff weight of a history
 * is its interpolation weight), which is exactly what pocketsphinx reads.
 */
export const SENTENCE_START = "<s>";
export const SENTENCE_END = "</s>";

const SEP = " ";

export interface NgramModelStats {
  vocabulary: number;
  counts: number[];
  discounts: number[];
}

interface OrderTable {
  /** Count used at this order: raw at the top, continuation (distinct left words) below. */
  counts: Map<string, number>;
  /** Per history: total count, number of distinct followers. */
  histories: Map<string, { total: number; types: number }>;
  discount: number;
}

function historyOf(ngram: string): string {
  const cut = ngram.lastIndexOf(SEP);
  return cut < 0 ? "" : ngram.slice(0, cut);
}

function lowerOf(ngram: string): string {
  const cut = ngram.indexOf(SEP);
  return cut < 0 ? "" : ngram.slice(cut + 1);
}

function discountFor(counts: Map<string, number>): number {
  let n1 = 0;
  let n2 = 0;
  for (const c of counts.values()) {
    if (c === 1) n1 += 1;
    else if (c === 2) n2 += 1;
  }
  const d = n1 + 2 * n2 > 0 ? n1 / (n1 + 2 * n2) : 0.5;
  // Very small corpora can give 0 or 1; both break interpolation (no mass moved, or none kept).
  return Math.min(0.9, Math.max(0.1, d));
}

export function estimateTrigramModel(sentences: readonly (readonly string[])[], order = 3) {
  const raw: Map<string, number>[] = Array.from({ length: order }, () => new Map());
  for (const sentence of sentences) {
    const tokens = [SENTENCE_START, ...sentence, SENTENCE_END];
    for (let n = 1; n <= order; n++) {
      for (let i = 0; i + n <= tokens.length; i++) {
        const gram = tokens.slice(i, i + n).join(SEP);
        // A unigram <s> is never predicted; it exists only as a history.
        if (n === 1 && gram === SENTENCE_START) continue;
        const table = raw[n - 1] as Map<string, number>;
        table.set(gram, (table.get(gram) ?? 0) + 1);
      }
    }
  }

  // Continuation counts for lower orders; n-grams that start with <s> have no left word, so keep their raw counts.
  const tables: OrderTable[] = [];
  for (let n = 1; n <= order; n++) {
    let counts: Map<string, number>;
    if (n === order) {
      counts = raw[n - 1] as Map<string, number>;
    } else {
      counts = new Map();
      for (const higher of (raw[n] as Map<string, number>).keys()) {
        const lower = lowerOf(higher);
        counts.set(lower, (counts.get(lower) ?? 0) + 1);
      }
      for (const [gram, c] of raw[n - 1] as Map<string, number>) {
        if (gram.startsWith(SENTENCE_START)) counts.set(gram, c);
        else if (!counts.has(gram)) counts.set(gram, c);
      }
    }
    const histories = new Map<string, { total: number; types: number }>();
    for (const [gram, c] of counts) {
      const h = historyOf(gram);
      const entry = histories.get(h) ?? { total: 0, types: 0 };
      entry.total += c;
      entry.types += 1;
      histories.set(h, entry);
    }
    tables.push({ counts, histories, discount: discountFor(counts) });
  }

  const unigramTable = tables[0] as OrderTable;
  const vocabulary = [...unigramTable.counts.keys()];
  const vocabSize = vocabulary.length;

  const probabilities: Map<string, number>[] = tables.map(() => new Map());
  const prob = (n: number, gram: string): number => {
    const table = tables[n - 1] as OrderTable;
    const cached = (probabilities[n - 1] as Map<string, number>).get(gram);
    if (cached !== undefined) return cached;
    const history = historyOf(gram);
    const stats = table.histories.get(history);
    const lower = n === 1 ? 1 / vocabSize : prob(n - 1, lowerOf(gram));
    if (!stats) return lower;
    const c = table.counts.get(gram) ?? 0;
    const p = Math.max(c - table.discount, 0) / stats.total + ((table.discount * stats.types) / stats.total) * lower;
    return p;
  };
  const backoffWeight = (n: number, history: string): number | null => {
    // The interpolation weight of `history` as a context for order n + 1.
    const table = tables[n] as OrderTable | undefined;
    const stats = table?.histories.get(history);
    if (!table || !stats) return null;
    return (table.discount * stats.types) / stats.total;
  };

  const sections: { gram: string; logp: number; logBow: number | null }[][] = [];
  for (let n = 1; n <= order; n++) {
    const grams = [...(tables[n - 1] as OrderTable).counts.keys()].sort();
    const rows = grams.map((gram) => {
      const p = prob(n, gram);
      (probabilities[n - 1] as Map<string, number>).set(gram, p);
      const bow = n < order ? backoffWeight(n, gram) : null;
      return { gram, logp: Math.log10(p), logBow: bow === null ? null : Math.log10(bow) };
    });
    if (n === 1) {
      // <s> is a history only: ARPA's convention is a probability of 10^-99.
      rows.unshift({ gram: SENTENCE_START, logp: -99, logBow: Math.log10(backoffWeight(1, SENTENCE_START) ?? 1) });
    }
    sections.push(rows);
  }

  const stats: NgramModelStats = {
    vocabulary: vocabSize + 1,
    counts: sections.map((s) => s.length),
    discounts: tables.map((t) => Number(t.discount.toFixed(4))),
  };
  return { sections, stats, probability: prob };
}

export function formatArpa(model: ReturnType<typeof estimateTrigramModel>, header: string): string {
  const lines: string[] = [];
  for (const line of header.split("\n")) lines.push(`# ${line}`);
  lines.push("", "\\data\\");
  model.sections.forEach((rows, i) => {
    lines.push(`ngram ${i + 1}=${rows.length}`);
  });
  model.sections.forEach((rows, i) => {
    lines.push("", `\\${i + 1}-grams:`);
    for (const row of rows) {
      const bow = row.logBow === null ? "" : `\t${row.logBow.toFixed(4)}`;
      lines.push(`${row.logp.toFixed(4)}\t${row.gram}${bow}`);
    }
  });
  lines.push("", "\\end\\", "");
  return lines.join("\n");
}
