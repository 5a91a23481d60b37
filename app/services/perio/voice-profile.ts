// A hygienist's voice profile for voice charting (issue 14; ADR 0035): a few recordings of each
// number 0–9 in the user's own voice, kept as feature sequences on this device only. The stock
// acoustic model confuses some speakers' digits ("three" → "eight", "zero" → "two"); comparing
// each digit the grammar heard with the user's own recordings (dynamic time warping) corrects them.
// Shared by the browser voice mode and bench/perio-voice, like voice-recogniser.ts.
import type { Decoder } from "soundswallower";

export const PROFILE_VERSION = 1;
/** Takes of each number the enrolment asks for. */
export const ENROL_TAKES = 3;
export const ENROL_VALUES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] as const;

export type VoiceTemplate = { value: number; frames: number[][] };
export type VoiceProfile = {
  version: typeof PROFILE_VERSION;
  lang: string;
  templates: VoiceTemplate[];
  /** Median distance from each recording to the closest other recording of the same number. */
  typical: number;
};

const CEPSTRA = 12;
/** Frames quieter than the loudest by this much (log-mel units, ≈ natural log) are trimmed off the ends. */
const TRIM = 7;
/** Padding around a word the decoder aligned, in seconds: alignments cut consonants short. */
const PAD_S = 0.05;
/**
 * How much closer another digit's recordings must be before the heard digit is replaced (distance
 * ratio). Chosen on takes 3–9 of the shared recordings with profiles from takes 0–2 (ADR 0035).
 */
export const REPLACE_MARGIN = 0.2;
/**
 * A 10–15 heard where the user's recordings of one digit are this close (× the profile's typical
 * same-number distance) and clearly closer than any other digit is read as that digit: "two" heard as
 * "twelve" is the commonest confusion the grammar's weights leave. Same tuning data as above.
 */
export const TEEN_CLOSE = 1.5;
export const TEEN_MARGIN = 0.1;

/** DCT-II of one log-mel frame, coefficients 1..CEPSTRA (c0, the loudness, is left out). */
function cepstra(frame: Float32Array | number[], n: number): number[] {
  const out: number[] = [];
  for (let k = 1; k <= CEPSTRA; k++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += (frame[i] as number) * Math.cos((Math.PI * k * (i + 0.5)) / n);
    out.push(s * Math.sqrt(2 / n));
  }
  return out;
}

/**
 * Cepstra with deltas of an utterance, silence trimmed, mean- and variance-normalised per
 * utterance (so a quieter room or another microphone does not move the distances), from the
 * decoder's own front end (its log-mel spectrogram).
 */
export function utteranceFeatures(decoder: Decoder, audio: Float32Array): number[][] {
  if (audio.length === 0) return [];
  const spec = decoder.spectrogram(audio);
  const { nfr, nfeat, data } = spec;
  if (nfr === 0) return [];
  const energy: number[] = [];
  for (let t = 0; t < nfr; t++) {
    let e = 0;
    for (let i = 0; i < nfeat; i++) e += data[t * nfeat + i] as number;
    energy.push(e / nfeat);
  }
  const loudest = Math.max(...energy);
  let from = energy.findIndex((e) => e > loudest - TRIM);
  let to = nfr - 1 - [...energy].reverse().findIndex((e) => e > loudest - TRIM);
  if (from < 0) from = 0;
  if (to < from) to = from;
  const c = Array.from({ length: to - from + 1 }, (_, k) =>
    cepstra(data.subarray((from + k) * nfeat, (from + k + 1) * nfeat), nfeat),
  );
  for (let j = 0; j < CEPSTRA; j++) {
    const mean = c.reduce((s, f) => s + (f[j] as number), 0) / c.length;
    const sd = Math.sqrt(c.reduce((s, f) => s + ((f[j] as number) - mean) ** 2, 0) / c.length) + 1e-3;
    for (const f of c) f[j] = ((f[j] as number) - mean) / sd;
  }
  // Deltas over ±2 frames (the usual regression), appended to each frame.
  return c.map((f, t) => {
    const d = f.map((_, j) => {
      let s = 0;
      for (const k of [1, 2]) s += k * ((c[Math.min(c.length - 1, t + k)]?.[j] ?? 0) - (c[Math.max(0, t - k)]?.[j] ?? 0));
      return s / 10;
    });
    return [...f, ...d];
  });
}

/** Dynamic time warping distance, normalised by the path's length bound (n + m). */
export function dtwDistance(a: number[][], b: number[][]): number {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return Number.POSITIVE_INFINITY;
  let prev = new Float64Array(m + 1).fill(Number.POSITIVE_INFINITY);
  prev[0] = 0;
  for (let i = 1; i <= n; i++) {
    const row = new Float64Array(m + 1).fill(Number.POSITIVE_INFINITY);
    const x = a[i - 1] as number[];
    for (let j = 1; j <= m; j++) {
      const y = b[j - 1] as number[];
      let d = 0;
      for (let k = 0; k < x.length; k++) d += ((x[k] as number) - (y[k] as number)) ** 2;
      row[j] = Math.sqrt(d) + Math.min(prev[j] as number, row[j - 1] as number, prev[j - 1] as number);
    }
    prev = row;
  }
  return (prev[m] as number) / (n + m);
}

/** The closest recording's distance for each value in the profile. */
export function valueDistances(profile: VoiceProfile, features: number[][]): Map<number, number> {
  const out = new Map<number, number>();
  for (const t of profile.templates) {
    const d = dtwDistance(features, t.frames);
    if (d < (out.get(t.value) ?? Number.POSITIVE_INFINITY)) out.set(t.value, d);
  }
  return out;
}

/** A profile from enrolment recordings (one utterance per take, 8 kHz). */
export function buildProfile(decoder: Decoder, lang: string, takes: { value: number; audio: Float32Array }[]): VoiceProfile {
  const templates = takes
    .map(({ value, audio }) => ({ value, frames: utteranceFeatures(decoder, audio) }))
    .filter((t) => t.frames.length >= 3)
    .map((t) => ({ value: t.value, frames: t.frames.map((f) => f.map((v) => Math.round(v * 1000) / 1000 || 0)) }));
  const own = templates
    .map((t, i) =>
      Math.min(...templates.filter((u, j) => j !== i && u.value === t.value).map((u) => dtwDistance(t.frames, u.frames))),
    )
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const typical = own.length > 0 ? (own[Math.floor(own.length / 2)] as number) : Number.POSITIVE_INFINITY;
  return { version: PROFILE_VERSION, lang, templates, typical };
}

/**
 * The decoder's words after its last utterance, each single digit checked against the profile:
 * replaced by another digit when that digit's recordings are clearly closer. `numbers` are the
 * grammar's words for 0–9 in the profile's language.
 */
export function refineWithProfile(
  decoder: Decoder,
  profile: VoiceProfile,
  audio: Float32Array,
  numbers: readonly string[],
  sampleRate: number,
): string {
  // Fillers ([NOISE], silences) are not words of the grammar and never reach the text.
  const words = (decoder.get_alignment().w ?? []).filter((w) => !/^(\(NULL\)|<sil>|<s>|<\/s>|\[[A-Z]+\])$/.test(w.t));
  const out: string[] = [];
  for (const w of words) {
    const word = w.t.replace(/\(\d+\)$/, "");
    const heard = numbers.indexOf(word);
    if (heard < 0 || heard > 15) {
      out.push(word);
      continue;
    }
    const from = Math.max(0, Math.floor((w.b - PAD_S) * sampleRate));
    const to = Math.min(audio.length, Math.ceil((w.b + w.d + PAD_S) * sampleRate));
    const ranked = [...valueDistances(profile, utteranceFeatures(decoder, audio.subarray(from, to)))].sort((a, b) => a[1] - b[1]);
    const [best, second] = ranked;
    if (!best) {
      out.push(word);
      continue;
    }
    if (heard > 9) {
      // Profiles hold 0–9 only: a teen stays unless one digit's recordings match closely and alone.
      const close = best[1] <= profile.typical * TEEN_CLOSE && (!second || second[1] > best[1] * (1 + TEEN_MARGIN));
      out.push(close ? (numbers[best[0]] as string) : word);
      continue;
    }
    const own = ranked.find(([value]) => value === heard)?.[1] ?? Number.POSITIVE_INFINITY;
    const replace = best[0] !== heard && own > best[1] * (1 + REPLACE_MARGIN);
    out.push(numbers[replace ? best[0] : heard] as string);
  }
  return out.join(" ");
}
