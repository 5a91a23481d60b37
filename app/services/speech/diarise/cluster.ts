import type { SpeakerRole } from "./speaker.ts";

/**
 * Two voices from per-segment voice vectors, then which is whose from what they say (issue 26).
 * Pure: diarise.server.ts computes the vectors from the recording.
 */
export interface SegmentEvidence {
  /** Mean and spread of the segment's cepstra (voice), or null when too short to tell. */
  voice: Float64Array | null;
  /** Seconds of speech, the segment's weight. */
  duration: number;
  /** Clinician-versus-patient log odds from the words (roles.ts). */
  text: number;
  /** Seconds in the recording, when known: close neighbours lend each other evidence. */
  start?: number;
  end?: number;
}

export interface DiariseTuning {
  /** Weight of the voice evidence against the words, per segment. */
  voiceWeight: number;
  /** Bound on one segment's text log odds, so one long turn cannot outvote its voice. */
  textCap: number;
  /** Below this separation (between-cluster / within-cluster distance), one voice is assumed. */
  minSeparation: number;
  /** Share of each neighbour's score (previous and next segment, under `neighbourGap` s apart) added to a segment's. */
  neighbourWeight: number;
  neighbourGap: number;
}

export const DEFAULT_TUNING: DiariseTuning = {
  voiceWeight: 1,
  textCap: 6,
  minSeparation: 0,
  neighbourWeight: 0,
  neighbourGap: 1,
};

const dist2 = (a: Float64Array, b: Float64Array) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += ((a[i] as number) - (b[i] as number)) ** 2;
  return sum;
};

/** Z-scores every dimension over the segments that have a voice vector (duration-weighted). */
function standardise(vectors: Float64Array[], weights: number[]): Float64Array[] {
  const dims = vectors[0]?.length ?? 0;
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  const mean = new Float64Array(dims);
  const sd = new Float64Array(dims);
  vectors.forEach((v, i) => {
    for (let d = 0; d < dims; d++) mean[d] = (mean[d] as number) + ((v[d] as number) * (weights[i] as number)) / total;
  });
  vectors.forEach((v, i) => {
    for (let d = 0; d < dims; d++)
      sd[d] = (sd[d] as number) + (((v[d] as number) - (mean[d] as number)) ** 2 * (weights[i] as number)) / total;
  });
  return vectors.map((v) => Float64Array.from(v, (x, d) => (x - (mean[d] as number)) / Math.sqrt((sd[d] as number) + 1e-9)));
}

/** First principal direction by power iteration: the initial split of the two voices. */
function principalDirection(vectors: Float64Array[], weights: number[]): Float64Array {
  const dims = vectors[0]?.length ?? 0;
  let direction = Float64Array.from({ length: dims }, (_, d) => (d % 2 === 0 ? 1 : -1) / Math.sqrt(dims));
  for (let iteration = 0; iteration < 50; iteration++) {
    const next = new Float64Array(dims);
    vectors.forEach((v, i) => {
      let projection = 0;
      for (let d = 0; d < dims; d++) projection += (v[d] as number) * (direction[d] as number);
      for (let d = 0; d < dims; d++) next[d] = (next[d] as number) + projection * (v[d] as number) * (weights[i] as number);
    });
    const norm = Math.sqrt(next.reduce((a, b) => a + b * b, 0)) || 1;
    direction = next.map((x) => x / norm);
  }
  return direction;
}

function centroid(vectors: Float64Array[], weights: number[], members: boolean[], side: boolean): Float64Array | null {
  const dims = vectors[0]?.length ?? 0;
  const sum = new Float64Array(dims);
  let total = 0;
  vectors.forEach((v, i) => {
    if (members[i] !== side) return;
    total += weights[i] as number;
    for (let d = 0; d < dims; d++) sum[d] = (sum[d] as number) + (v[d] as number) * (weights[i] as number);
  });
  return total > 0 ? sum.map((x) => x / total) : null;
}

/**
 * Two-means over the voice vectors (initial split along the first principal direction), giving
 * each voiced segment a score: positive when nearer cluster A. Returns null when the recording
 * does not separate into two voices.
 */
export function twoVoices(evidence: readonly SegmentEvidence[], minSeparation: number): { side: (number | null)[] } | null {
  const indexes = evidence.flatMap((e, i) => (e.voice ? [i] : []));
  if (indexes.length < 4) return null;
  const weights = indexes.map((i) => Math.min(evidence[i]?.duration ?? 0, 10));
  const vectors = standardise(
    indexes.map((i) => evidence[i]?.voice as Float64Array),
    weights,
  );
  const direction = principalDirection(vectors, weights);
  let members = vectors.map((v) => v.reduce((sum, x, d) => sum + x * (direction[d] as number), 0) > 0);
  let a: Float64Array | null = null;
  let b: Float64Array | null = null;
  for (let iteration = 0; iteration < 30; iteration++) {
    a = centroid(vectors, weights, members, true);
    b = centroid(vectors, weights, members, false);
    if (!a || !b) return null;
    const next = vectors.map((v) => dist2(v, a as Float64Array) < dist2(v, b as Float64Array));
    if (next.every((m, i) => m === members[i])) break;
    members = next;
  }
  if (!a || !b) return null;
  const within =
    vectors.reduce((sum, v, i) => sum + (members[i] ? dist2(v, a as Float64Array) : dist2(v, b as Float64Array)), 0) /
    vectors.length;
  if (dist2(a, b) / (within || 1) < minSeparation) return null;
  const side: (number | null)[] = evidence.map(() => null);
  indexes.forEach((segment, k) => {
    const v = vectors[k] as Float64Array;
    // Half the difference of squared distances over the whole within-cluster spread (not per
    // dimension: the 24 numbers are far from independent), so about ±1 for a typical segment.
    side[segment] = (dist2(v, b as Float64Array) - dist2(v, a as Float64Array)) / (2 * (within || 1));
  });
  return { side };
}

/**
 * Roles per segment: the voice cluster whose words sound more like a clinician's is the
 * clinician; each segment then weighs its voice (nearer which cluster) against its own words.
 * Without two voices, the words decide alone; with no evidence at all, null.
 */
export function assignRoles(
  evidence: readonly SegmentEvidence[],
  tuning: DiariseTuning = DEFAULT_TUNING,
): (SpeakerRole | null)[] {
  const cap = (x: number) => Math.max(-tuning.textCap, Math.min(tuning.textCap, x));
  const voices = twoVoices(evidence, tuning.minSeparation);
  let orientation = 0;
  if (voices) {
    // Which cluster is the clinician: text evidence summed over each side's segments.
    evidence.forEach((e, i) => {
      const side = voices.side[i];
      if (side !== null && side !== undefined) orientation += Math.sign(side) * cap(e.text);
    });
  }
  const sign = orientation >= 0 ? 1 : -1;
  const own = evidence.map((e, i) => {
    const side = voices?.side[i] ?? null;
    return (side === null ? 0 : tuning.voiceWeight * sign * side) + cap(e.text);
  });
  // People speak in turns of several segments: a neighbour close in time is probably the same person.
  const near = (a: SegmentEvidence | undefined, b: SegmentEvidence | undefined) =>
    a?.end !== undefined && b?.start !== undefined && b.start - a.end < tuning.neighbourGap;
  return own.map((score, i) => {
    let total = score;
    if (tuning.neighbourWeight > 0) {
      if (near(evidence[i - 1], evidence[i])) total += tuning.neighbourWeight * (own[i - 1] ?? 0);
      if (near(evidence[i], evidence[i + 1])) total += tuning.neighbourWeight * (own[i + 1] ?? 0);
    }
    if (total === 0) return null;
    return total > 0 ? "clinician" : "patient";
  });
}
