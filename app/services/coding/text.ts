// Word-level text handling shared by code search and the embedded suggestion engine: one
// normalisation (lower case, no accents), one light English stemmer, one stop-word list.

const STOP = new Set(
  "a an and are as at be by for from in into is it of on or other than the to with without unspecified specified not elsewhere classified nec nos due site".split(
    " ",
  ),
);

/** Words that carry no meaning on their own in a code title. */
export function isStopWord(word: string): boolean {
  return STOP.has(word);
}

export function fold(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
}

/** A light suffix stripper so "fractures", "fractured" and "fracture" meet (not a full Porter stemmer). */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith("sses")) return word.slice(0, -2);
  if (word.endsWith("ss") || word.endsWith("us") || word.endsWith("is")) return word;
  if (word.endsWith("es") && /(ch|sh|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s")) return word.slice(0, -1);
  if (word.endsWith("ed") && word.length > 5) return word.slice(0, -2).replace(/(.)\1$/, "$1");
  if (word.endsWith("ing") && word.length > 6) return word.slice(0, -3);
  return word;
}

export interface Token {
  /** Folded and stemmed. */
  word: string;
  start: number;
  end: number;
}

/** Tokens with their offsets into `text` (offsets stay exact: folding never changes the length of ASCII). */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const re = /[\p{L}\p{N}]+/gu;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    tokens.push({ word: stem(fold(m[0])), start: m.index, end: m.index + m[0].length });
  }
  return tokens;
}

/** Folded, stemmed words of a title or query. */
export function words(text: string): string[] {
  return (fold(text).match(/[\p{L}\p{N}]+/gu) ?? []).map(stem);
}

/** Levenshtein distance, giving up (returning max + 1) once it exceeds `max`. */
export function boundedEditDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}
