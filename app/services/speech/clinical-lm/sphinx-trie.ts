/**
 * Reads a sphinxbase "Trie Language Model" binary (Debian's en-us.lm.bin, 3-gram), whose n-grams
 * Debian's tools cannot export (sphinx_lm_convert aborts writing it as ARPA). Layout, from
 * sphinxbase 5prealpha ngram_model_trie.c / lm_trie.c / lm_trie_quant.c (little-endian x86):
 *
 *   "Trie Language Model" · uint8 order · uint32 counts[order]
 *   int32 quant type · float bins: per middle order prob[2^16], backoff[2^16]; longest prob[2^16]
 *   unigrams[counts[0] + 1] {float prob, float backoff, uint32 next}
 *   ngram_mem: the bit-packed middle (bigram) then longest (trigram) arrays, sizes from the counts
 *   int32 k · k bytes of NUL-terminated words, in word-id order
 *
 * N-grams are stored in reverse word order (as in KenLM): the unigram of the LAST word points at
 * the entries of the word before it, and so on. Values are logs in the model's logmath base
 * (1.0001), converted here to log10.
 */
export interface TrieLm {
  order: number;
  words: string[];
  /** log10 probability and backoff per word id. */
  uniProb: Float32Array;
  uniBow: Float32Array;
  /** Bigrams (w1 w2) as parallel arrays, sorted by w2 then w1. */
  bi: { w1: Uint32Array; w2: Uint32Array; prob: Float32Array; bow: Float32Array };
  /** Trigrams (w1 w2 w3). */
  tri: { w1: Uint32Array; w2: Uint32Array; w3: Uint32Array; prob: Float32Array };
}

const HEADER = "Trie Language Model";
const LOG10_BASE = Math.log10(1.0001);

function requiredBits(max: number): number {
  if (!max) return 0;
  let bits = 1;
  let v = max;
  // biome-ignore lint/suspicious/noAssignInExpressions: mirrors bitarr_required_bits
  while ((v >>>= 1)) bits++;
  return bits;
}

export function readTrieLm(buffer: Buffer): TrieLm {
  if (buffer.toString("latin1", 0, HEADER.length) !== HEADER) throw new Error("not a sphinxbase trie LM");
  let at = HEADER.length;
  const order = buffer.readUInt8(at);
  at += 1;
  if (order !== 3) throw new Error(`only trigram trie LMs are supported, got order ${order}`);
  const counts: number[] = [];
  for (let i = 0; i < order; i++, at += 4) counts.push(buffer.readUInt32LE(at));
  const [nUni = 0, nBi = 0, nTri = 0] = counts;
  at += 4; // quantisation type
  const bins = (n: number) => {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++, at += 4) out[i] = buffer.readFloatLE(at) * LOG10_BASE;
    return out;
  };
  const midProbBins = bins(1 << 16);
  const midBowBins = bins(1 << 16);
  const longProbBins = bins(1 << 16);
  const uniProb = new Float32Array(nUni);
  const uniBow = new Float32Array(nUni);
  const uniNext = new Uint32Array(nUni + 1);
  for (let i = 0; i <= nUni; i++, at += 12) {
    if (i < nUni) {
      uniProb[i] = buffer.readFloatLE(at) * LOG10_BASE;
      uniBow[i] = buffer.readFloatLE(at + 4) * LOG10_BASE;
    }
    uniNext[i] = buffer.readUInt32LE(at + 8);
  }
  const wordBits = requiredBits(nUni);
  const nextBits = requiredBits(nTri);
  const midTotal = wordBits + 32 + nextBits;
  const longTotal = wordBits + 16;
  // base_size(): (1 + entries) × bits rounded up to bytes, + 8 bytes of padding per array.
  const midBytes = Math.floor(((1 + nBi) * midTotal + 7) / 8) + 8;
  const memSize = midBytes + Math.floor(((1 + nTri) * longTotal + 7) / 8) + 8;
  const mem = buffer.subarray(at, at + memSize);
  at += memSize;
  const k = buffer.readInt32LE(at);
  at += 4;
  const words = buffer
    .toString("latin1", at, at + k)
    .split("\0")
    .slice(0, nUni);
  if (words.length !== nUni) throw new Error("word list does not match the unigram count");

  const read = (bitOffset: number, bits: number): number => {
    const byte = bitOffset >>> 3;
    // Up to 25 bits from any bit offset fit in 4 bytes; the array is padded by 8 bytes at its end.
    const value = (mem[byte] ?? 0) | ((mem[byte + 1] ?? 0) << 8) | ((mem[byte + 2] ?? 0) << 16) | ((mem[byte + 3] ?? 0) << 24);
    return ((value >>> (bitOffset & 7)) & (bits >= 32 ? 0xffffffff : (1 << bits) - 1)) >>> 0;
  };
  const longBase = midBytes * 8;

  const bi = {
    w1: new Uint32Array(nBi),
    w2: new Uint32Array(nBi),
    prob: new Float32Array(nBi),
    bow: new Float32Array(nBi),
  };
  const tri = { w1: new Uint32Array(nTri), w2: new Uint32Array(nTri), w3: new Uint32Array(nTri), prob: new Float32Array(nTri) };
  const biNext = (i: number) => read(i * midTotal + wordBits + 32, nextBits);
  for (let last = 0; last < nUni; last++) {
    for (let i = uniNext[last] as number; i < (uniNext[last + 1] as number); i++) {
      const offset = i * midTotal;
      const before = read(offset, wordBits);
      bi.w1[i] = before;
      bi.w2[i] = last;
      // Backoff first, then probability (lm_trie_quant_mboread / mpread).
      bi.bow[i] = midBowBins[read(offset + wordBits, 16)] as number;
      bi.prob[i] = midProbBins[read(offset + wordBits + 16, 16)] as number;
      for (let j = biNext(i); j < biNext(i + 1); j++) {
        const toff = longBase + j * longTotal;
        tri.w1[j] = read(toff, wordBits);
        tri.w2[j] = before;
        tri.w3[j] = last;
        tri.prob[j] = longProbBins[read(toff + wordBits, 16)] as number;
      }
    }
  }
  return { order, words, uniProb, uniBow, bi, tri };
}

/** P(last word | the words before it) under the trie model, with its backoff (for up to 3 words). */
export function trieLmLookup(lm: TrieLm): { prob: (words: readonly string[]) => number; id: Map<string, number> } {
  const id = new Map(lm.words.map((w, i) => [w, i]));
  const B = 131_072; // 2^17 > the vocabulary: numeric keys instead of strings for 3.7 M n-grams
  const bigram = new Map<number, number>();
  for (let i = 0; i < lm.bi.w1.length; i++) bigram.set((lm.bi.w1[i] as number) * B + (lm.bi.w2[i] as number), i);
  const trigram = new Map<number, number>();
  for (let i = 0; i < lm.tri.w1.length; i++)
    trigram.set(
      ((lm.tri.w1[i] as number) * B + (lm.tri.w2[i] as number)) * B + (lm.tri.w3[i] as number),
      lm.tri.prob[i] as number,
    );
  const log2 = (h: number, w: number): number => {
    const i = bigram.get(h * B + w);
    return i !== undefined ? (lm.bi.prob[i] as number) : (lm.uniBow[h] as number) + (lm.uniProb[w] as number);
  };
  const prob = (words: readonly string[]): number => {
    const ids = words.map((w) => id.get(w));
    const w = ids.at(-1);
    if (w === undefined) return 0;
    if (ids.length === 1) return 10 ** (lm.uniProb[w] as number);
    const h1 = ids.at(-2);
    if (h1 === undefined) return 10 ** (lm.uniProb[w] as number);
    if (ids.length === 2) return 10 ** log2(h1, w);
    const h2 = ids.at(-3);
    const lower = log2(h1, w);
    if (h2 === undefined) return 10 ** lower;
    const t = trigram.get((h2 * B + h1) * B + w);
    if (t !== undefined) return 10 ** t;
    const b = bigram.get(h2 * B + h1);
    return 10 ** ((b !== undefined ? (lm.bi.bow[b] as number) : 0) + lower);
  };
  return { prob, id };
}
