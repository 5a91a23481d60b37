/**
 * Levenshtein distance in characters (insertions, deletions, substitutions), the per-section
 * quality figure stored on a signed version (issue 6: "per-section edit distance between draft and
 * signed note"). Code points, so an accented letter counts once.
 *
 * Bounded (issue 25: the quadratic table took 40 s for a 40 × 20,000-character note, on the web
 * process's one thread). The common prefix and suffix are cut first (a clinician's edits are
 * usually local), then the differing middle is computed with Myers' bit-parallel algorithm
 * (32 table cells per machine step). When the middle's table would exceed EXACT_CELLS cells, the
 * two middles are cut into the same number of proportional chunks of at most CHUNK code points
 * and the chunks' distances are summed: an upper bound (it is the cost of one valid alignment),
 * equal to the exact figure whenever no edit crosses a chunk boundary's alignment. Cost is at most
 * about n × CHUNK / 32 steps: a wholly rewritten 20,000-character section is a few milliseconds.
 */
export const EDIT_DISTANCE_LIMITS = { exactCells: 1 << 22, chunk: 512 } as const;

export function editDistance(a: string, b: string): number {
  let x = toSymbols(a);
  let y = toSymbols(b);
  // Common prefix and suffix never change the distance.
  let start = 0;
  while (start < x.length && start < y.length && x[start] === y[start]) start += 1;
  let endX = x.length;
  let endY = y.length;
  while (endX > start && endY > start && x[endX - 1] === y[endY - 1]) {
    endX -= 1;
    endY -= 1;
  }
  x = x.subarray(start, endX);
  y = y.subarray(start, endY);
  if (x.length === 0) return y.length;
  if (y.length === 0) return x.length;
  if (x.length * y.length <= EDIT_DISTANCE_LIMITS.exactCells) return myers(x, y);
  const chunks = Math.ceil(Math.max(x.length, y.length) / EDIT_DISTANCE_LIMITS.chunk);
  let total = 0;
  for (let i = 0; i < chunks; i += 1) {
    const xs = x.subarray(Math.floor((i * x.length) / chunks), Math.floor(((i + 1) * x.length) / chunks));
    const ys = y.subarray(Math.floor((i * y.length) / chunks), Math.floor(((i + 1) * y.length) / chunks));
    total += xs.length === 0 ? ys.length : ys.length === 0 ? xs.length : myers(xs, ys);
  }
  return total;
}

/** Code points as integers (a surrogate pair is one symbol). */
function toSymbols(text: string): Int32Array {
  const out = new Int32Array(text.length);
  let n = 0;
  for (const ch of text) out[n++] = ch.codePointAt(0) ?? 0;
  return out.subarray(0, n);
}

/**
 * Myers (1999) bit-vector edit distance, in Hyyrö's block form: the shorter sequence is the
 * pattern, cut into 32-row blocks; each text symbol advances every block by one column, carrying
 * the horizontal delta (+1, 0, −1) from one block to the next. The score is the bottom row.
 */
function myers(first: Int32Array, second: Int32Array): number {
  const [pattern, text] = first.length <= second.length ? [first, second] : [second, first];
  const m = pattern.length;
  const blocks = Math.ceil(m / 32);
  // Dense ids for the pattern's symbols; a text symbol absent from the pattern matches nothing.
  const ids = new Map<number, number>();
  for (const symbol of pattern) if (!ids.has(symbol)) ids.set(symbol, ids.size);
  const alphabet = ids.size;
  const peq = new Int32Array(blocks * alphabet);
  for (let i = 0; i < m; i += 1) {
    const id = ids.get(pattern[i] as number) as number;
    const at = (i >>> 5) * alphabet + id;
    peq[at] = (peq[at] as number) | (1 << (i & 31));
  }
  const pv = new Int32Array(blocks).fill(-1);
  const mv = new Int32Array(blocks);
  const lastBit = 1 << ((m - 1) & 31);
  let score = m;
  for (let j = 0; j < text.length; j += 1) {
    const id = ids.get(text[j] as number);
    // Row 0 of the table grows by one per column: the top block's incoming delta is +1.
    let hin = 1;
    for (let b = 0; b < blocks; b += 1) {
      let eq = id === undefined ? 0 : (peq[b * alphabet + id] as number);
      const pvb = pv[b] as number;
      const mvb = mv[b] as number;
      const xv = eq | mvb;
      if (hin < 0) eq |= 1;
      const xh = (((eq & pvb) + pvb) ^ pvb) | eq;
      let ph = mvb | ~(xh | pvb);
      let mh = pvb & xh;
      const top = b === blocks - 1 ? lastBit : 1 << 31;
      const hout = ph & top ? 1 : mh & top ? -1 : 0;
      ph <<= 1;
      mh <<= 1;
      if (hin < 0) mh |= 1;
      else if (hin > 0) ph |= 1;
      pv[b] = mh | ~(xv | ph);
      mv[b] = ph & xv;
      hin = hout;
    }
    score += hin;
  }
  return score;
}
