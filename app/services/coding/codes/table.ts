import { expandAbbreviation } from "../abbreviations.ts";
import { boundedEditDistance, isStopWord, words } from "../text.ts";
import { MAIN_TERM_CODES, queryVariants } from "./synonyms.ts";

export const CODE_SYSTEMS = ["icd10cm", "hcpcs", "cpt", "cdt"] as const;
export type CodeSystem = (typeof CODE_SYSTEMS)[number];

export interface CodeEntry {
  /** Dotless, upper case: the table key. */
  key: string;
  /** As shown and exchanged: ICD-10-CM with its dot (E11.65), others as published. */
  code: string;
  title: string;
  /** Only billable codes are ever suggested or accepted as final codes; headers are for browsing. */
  billable: boolean;
}

export interface SearchResult {
  code: string;
  description: string;
  billable: boolean;
  /** Found through a Tabular List inclusion term (codes/inclusion.ts): the term as printed. */
  matched_term?: string;
  /**
   * The term's FY2021 code when it has changed since: "split" (now several longer codes — choose
   * one), "retired" (no longer exists; its nearest parent's codes are listed), "header" (a category).
   */
  term_code?: string;
  term_status?: "split" | "retired" | "header";
}

/** ICD-10-CM shows a dot after the category (E1165 → E11.65); other systems have none. */
export function displayCode(system: CodeSystem, key: string): string {
  return system === "icd10cm" && key.length > 3 ? `${key.slice(0, 3)}.${key.slice(3)}` : key;
}

export function codeKey(input: string): string {
  return input.replace(/[.\s-]/g, "").toUpperCase();
}

/**
 * One code system in memory with a prefix index (sorted keys) and a word index (posting lists) for
 * search; typo tolerance expands an unknown query word to the vocabulary within edit distance 1
 * (2 from eight letters), and the last word also matches as a prefix while someone types.
 */
export class CodeTable {
  readonly byKey = new Map<string, CodeEntry>();
  private readonly position = new Map<string, number>();
  private readonly sorted: CodeEntry[];
  private readonly postings = new Map<string, number[]>();
  private readonly vocabulary: string[];
  private readonly titleWordCount: Uint16Array;

  readonly system: CodeSystem;
  readonly version: string;
  readonly entries: CodeEntry[];

  constructor(system: CodeSystem, version: string, entries: CodeEntry[]) {
    this.system = system;
    this.version = version;
    this.entries = entries;
    this.sorted = [...entries].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    this.titleWordCount = new Uint16Array(entries.length);
    entries.forEach((entry, i) => {
      this.byKey.set(entry.key, entry);
      this.position.set(entry.key, i);
      const ws = new Set(words(entry.title));
      this.titleWordCount[i] = ws.size;
      for (const w of ws) {
        let list = this.postings.get(w);
        if (!list) {
          list = [];
          this.postings.set(w, list);
        }
        list.push(i);
      }
    });
    this.vocabulary = [...this.postings.keys()].sort();
  }

  get(code: string): CodeEntry | undefined {
    return this.byKey.get(codeKey(code));
  }

  search(query: string, limit = 20): SearchResult[] {
    const q = query.trim();
    if (!q) return [];
    const key = codeKey(q);
    const out: CodeEntry[] = [];
    // A code or code prefix: letter + digit (E11, e11.6, A0), or an all-caps HCPCS-like token.
    if (/^[A-Za-z][0-9A-Za-z]{0,6}$/.test(key) && /\d/.test(key)) out.push(...this.prefix(key, limit));
    if (out.length < limit) {
      const seen = new Set(out.map((e) => e.key));
      for (const { entry } of this.scoredSearch(q, limit * 3)) {
        if (out.length >= limit) break;
        if (!seen.has(entry.key)) out.push(entry);
      }
    }
    return out.slice(0, limit).map((e) => ({ code: e.code, description: e.title, billable: e.billable }));
  }

  /**
   * Titles matching every meaningful word of the query — as written, or with a coder's equivalent
   * substituted (synonyms.ts: "distal" → "lower end", "heart attack" → "myocardial infarction"),
   * scored (higher is closer; an equivalent's match scores a little below the written words'). When
   * no title has every word, the titles with the most of them (at least half), scored lower still:
   * a phrase naming a billable condition never returns nothing.
   */
  scoredSearch(rawQuery: string, limit: number): Array<{ entry: CodeEntry; score: number }> {
    const query = rawQuery.replace(/[\p{L}\p{N}]+/gu, (w) => expandAbbreviation(w) ?? w);
    const all = words(query);
    const meaningful = all.filter((w) => !isStopWord(w));
    const qs = meaningful.length > 0 ? meaningful : all;
    if (qs.length === 0) return [];
    // The last word may still be being typed, unless the query ends with a space.
    const typing = !/\s$/.test(query);
    const best = new Map<number, number>();
    queryVariants(qs).forEach((variant, v) => {
      const ws = variant.filter((w) => !isStopWord(w));
      const found = this.wordSearch(ws, typing && v === 0, limit);
      for (const { i, score } of found) {
        const s = score - (v === 0 ? 0 : 0.05);
        if ((best.get(i) ?? Number.NEGATIVE_INFINITY) < s) best.set(i, s);
      }
      // The index's default code for a main term leads ("hypertension" → I10, not the shortest title).
      const main = MAIN_TERM_CODES.get(ws.join(" "));
      const at = main ? this.position.get(codeKey(main)) : undefined;
      if (at !== undefined) best.set(at, Math.max(0, ...found.map((f) => f.score)) + 0.5);
    });
    if (best.size === 0 && qs.length >= 2) {
      for (const { i, score } of this.partialSearch(qs, limit)) best.set(i, score - 1);
    }
    return [...best]
      .sort((a, b) => b[1] - a[1] || (this.entries[a[0]]!.key < this.entries[b[0]]!.key ? -1 : 1))
      .slice(0, limit)
      .map(([i, score]) => ({ entry: this.entries[i]!, score }));
  }

  /**
   * Titles with the most informative query words when none has them all: each title scores the
   * rarity (idf) of the query words it has; a main term among the query's words ("pneumonia" in
   * "severe community acquired pneumonia") brings its index default first (synonyms.ts).
   */
  private partialSearch(qs: string[], limit: number): Array<{ i: number; score: number }> {
    const scores = new Map<number, number>();
    const n = this.entries.length;
    for (const w of qs) {
      const hit = new Set<number>();
      for (const [v, weight] of this.expand(w, false)) {
        for (const i of this.postings.get(v) ?? []) if (weight >= 0.6) hit.add(i);
      }
      if (hit.size === 0) continue;
      const idf = Math.log(n / hit.size);
      for (const i of hit) scores.set(i, (scores.get(i) ?? 0) + idf);
    }
    for (let a = 0; a < qs.length; a++) {
      for (let b = a + 1; b <= Math.min(qs.length, a + 4); b++) {
        const main = MAIN_TERM_CODES.get(qs.slice(a, b).join(" "));
        const at = main ? this.position.get(codeKey(main)) : undefined;
        if (at !== undefined) scores.set(at, (scores.get(at) ?? 0) + 1000);
      }
    }
    return [...scores]
      .map(([i, s]) => ({ i, score: s / 1000 - this.titleWordCount[i]! * 0.01 + (this.entries[i]!.billable ? 0.005 : 0) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, limit);
  }

  /** The billable codes starting with a key (the key's own code included), in code order. */
  billableUnder(key: string, limit: number): CodeEntry[] {
    return this.prefix(key, 500)
      .filter((e) => e.billable)
      .slice(0, limit);
  }

  private prefix(key: string, limit: number): CodeEntry[] {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sorted[mid]!.key < key) lo = mid + 1;
      else hi = mid;
    }
    const out: CodeEntry[] = [];
    for (let i = lo; i < this.sorted.length && out.length < limit && this.sorted[i]!.key.startsWith(key); i++) {
      out.push(this.sorted[i]!);
    }
    return out;
  }

  // Expansions are pure: cached (bounded) because a query's synonym variants share most words.
  private readonly expansions = new Map<string, Map<string, number>>();

  /** Vocabulary words a query word stands for, with a weight (exact 1, prefix 0.8, typo 0.6). */
  private expand(word: string, isLast: boolean): Map<string, number> {
    const cacheKey = `${isLast ? 1 : 0}${word}`;
    const cached = this.expansions.get(cacheKey);
    if (cached) return cached;
    const found = this.expandUncached(word, isLast);
    if (this.expansions.size > 5000) this.expansions.clear();
    this.expansions.set(cacheKey, found);
    return found;
  }

  private expandUncached(word: string, isLast: boolean): Map<string, number> {
    const found = new Map<string, number>();
    if (this.postings.has(word)) found.set(word, 1);
    if (isLast || found.size === 0) {
      let lo = 0;
      let hi = this.vocabulary.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (this.vocabulary[mid]! < word) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < this.vocabulary.length && this.vocabulary[i]!.startsWith(word) && found.size < 200; i++) {
        if (!found.has(this.vocabulary[i]!)) found.set(this.vocabulary[i]!, 0.8);
      }
    }
    if (found.size === 0 && word.length >= 4) {
      const max = word.length >= 8 ? 2 : 1;
      // Typos rarely hit both of the first two letters: comparing only words sharing one keeps this fast.
      for (const v of this.vocabulary) {
        if (Math.abs(v.length - word.length) > max || (v[0] !== word[0] && v[1] !== word[1])) continue;
        if (boundedEditDistance(word, v, max) <= max) found.set(v, 0.6);
      }
    }
    return found;
  }

  private wordSearch(qs: string[], typingLast: boolean, limit: number): Array<{ i: number; score: number }> {
    if (qs.length === 0) return [];
    const expanded = qs.map((w, qi) => [...this.expand(w, typingLast && qi === qs.length - 1)]);
    const size = (ex: Array<[string, number]>) => ex.reduce((n, [v]) => n + (this.postings.get(v)?.length ?? 0), 0);
    // Start from the rarest word, then only check the survivors against the others' sorted postings.
    const order = expanded.map((ex, i) => ({ ex, n: size(ex), i })).sort((a, b) => a.n - b.n);
    const scores = new Map<number, number>();
    for (const [v, weight] of order[0]?.ex ?? []) {
      for (const i of this.postings.get(v) ?? []) {
        if ((scores.get(i) ?? 0) < weight) scores.set(i, weight);
      }
    }
    for (const { ex } of order.slice(1)) {
      for (const [i, s] of scores) {
        let best = 0;
        for (const [v, weight] of ex) {
          if (weight > best && contains(this.postings.get(v), i)) best = weight;
        }
        if (best === 0) scores.delete(i);
        else scores.set(i, s + best);
      }
    }
    // Every query word matched; closer matches first, then the shortest title (the most general);
    // a later encounter or sequela after the initial one (what a coder looks up first).
    return [...scores]
      .map(([i, s]) => ({
        i,
        score:
          s -
          this.titleWordCount[i]! * 0.01 +
          (this.entries[i]!.billable ? 0.005 : 0) -
          (/\b(?:sequela|subsequent encounter)\b/.test(this.entries[i]!.title) ? 0.2 : 0),
      }))
      .sort((a, b) => b.score - a.score || (this.entries[a.i]!.key < this.entries[b.i]!.key ? -1 : 1))
      .slice(0, limit);
  }
}

/** Binary search in an ascending posting list. */
function contains(list: number[] | undefined, value: number): boolean {
  if (!list) return false;
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const x = list[mid]!;
    if (x === value) return true;
    if (x < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
