// Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009): each list adds 1 / (k + rank)
// for every item it holds, so an item near the top of either list rises without the lists' scores
// (cover density, cosine) having to be comparable. k = 60 is the paper's constant.

export const RRF_K = 60;

export interface Fused<T> {
  item: T;
  score: number;
  /** 1-based rank in each list, null where the list does not hold it. */
  ranks: (number | null)[];
}

/** Fuses ranked lists of items keyed by `key`; ties keep the first list's order. */
export function reciprocalRankFusion<T>(lists: T[][], key: (item: T) => string, k = RRF_K): Fused<T>[] {
  const byKey = new Map<string, Fused<T> & { first: number }>();
  lists.forEach((list, li) => {
    list.forEach((item, i) => {
      const id = key(item);
      let entry = byKey.get(id);
      if (!entry) {
        entry = { item, score: 0, ranks: lists.map(() => null), first: li * 1_000_000 + i };
        byKey.set(id, entry);
      }
      entry.score += 1 / (k + i + 1);
      entry.ranks[li] = i + 1;
    });
  });
  return [...byKey.values()]
    .sort((a, b) => b.score - a.score || a.first - b.first)
    .map(({ item, score, ranks }) => ({ item, score, ranks }));
}
