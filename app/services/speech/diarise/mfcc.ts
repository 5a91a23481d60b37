/**
 * Mel-frequency cepstral coefficients of 16 kHz mono PCM, the usual voice features for telling
 * speakers apart: 25 ms Hamming frames every 10 ms, 512-point FFT, 26 mel bands (100–7,000 Hz),
 * log energies, DCT-II → c1…c12 (c0, the loudness, is kept apart as `energy`: the microphone's
 * distance to each person changes it more than their voice does).
 */
export const SAMPLE_RATE = 16_000;
export const FRAME_SAMPLES = 400;
export const HOP_SAMPLES = 160;
const FFT_SIZE = 512;
const MEL_BANDS = 26;
export const CEPSTRA = 12;

const hamming = Float64Array.from(
  { length: FRAME_SAMPLES },
  (_, i) => 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (FRAME_SAMPLES - 1)),
);

const mel = (hz: number) => 2595 * Math.log10(1 + hz / 700);
const hz = (m: number) => 700 * (10 ** (m / 2595) - 1);

/** Triangular filters as [first bin, weights…] per band. */
const filters: { first: number; weights: Float64Array }[] = (() => {
  const low = mel(100);
  const high = mel(7000);
  const points = Array.from({ length: MEL_BANDS + 2 }, (_, i) => hz(low + ((high - low) * i) / (MEL_BANDS + 1)));
  const bins = points.map((f) => (f * FFT_SIZE) / SAMPLE_RATE);
  return Array.from({ length: MEL_BANDS }, (_, b) => {
    const [left, centre, right] = [bins[b] ?? 0, bins[b + 1] ?? 0, bins[b + 2] ?? 0];
    const first = Math.ceil(left);
    const last = Math.floor(right);
    const weights = new Float64Array(Math.max(0, last - first + 1));
    for (let k = first; k <= last; k++)
      weights[k - first] = k <= centre ? (k - left) / (centre - left) : (right - k) / (right - centre);
    return { first, weights };
  });
})();

const dct = Array.from({ length: CEPSTRA + 1 }, (_, c) =>
  Float64Array.from({ length: MEL_BANDS }, (_, b) => Math.cos((Math.PI * c * (b + 0.5)) / MEL_BANDS)),
);

/** In-place iterative radix-2 FFT. */
function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j] as number, re[i] as number];
      [im[i], im[j]] = [im[j] as number, im[i] as number];
    }
  }
  for (let size = 2; size <= n; size <<= 1) {
    const angle = (-2 * Math.PI) / size;
    const wr = Math.cos(angle);
    const wi = Math.sin(angle);
    for (let start = 0; start < n; start += size) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < size / 2; k++) {
        const a = start + k;
        const b = a + size / 2;
        const tr = (re[b] as number) * cr - (im[b] as number) * ci;
        const ti = (re[b] as number) * ci + (im[b] as number) * cr;
        re[b] = (re[a] as number) - tr;
        im[b] = (im[a] as number) - ti;
        re[a] = (re[a] as number) + tr;
        im[a] = (im[a] as number) + ti;
        const next = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = next;
      }
    }
  }
}

export interface CepstralFrames {
  /** frames × CEPSTRA, row-major. */
  cepstra: Float32Array;
  /** c0 per frame (log energy). */
  energy: Float32Array;
  count: number;
}

export function mfcc(samples: Int16Array): CepstralFrames {
  const count = samples.length < FRAME_SAMPLES ? 0 : Math.floor((samples.length - FRAME_SAMPLES) / HOP_SAMPLES) + 1;
  const cepstra = new Float32Array(count * CEPSTRA);
  const energy = new Float32Array(count);
  const re = new Float64Array(FFT_SIZE);
  const im = new Float64Array(FFT_SIZE);
  const bands = new Float64Array(MEL_BANDS);
  for (let f = 0; f < count; f++) {
    const offset = f * HOP_SAMPLES;
    re.fill(0);
    im.fill(0);
    let previous = offset > 0 ? (samples[offset - 1] as number) : 0;
    for (let i = 0; i < FRAME_SAMPLES; i++) {
      const sample = samples[offset + i] as number;
      // Pre-emphasis 0.97, as sphinx_fe does.
      re[i] = ((sample - 0.97 * previous) / 32768) * (hamming[i] as number);
      previous = sample;
    }
    fft(re, im);
    for (let b = 0; b < MEL_BANDS; b++) {
      const { first, weights } = filters[b] as (typeof filters)[number];
      let sum = 0;
      for (let k = 0; k < weights.length; k++) {
        const bin = first + k;
        sum += (weights[k] as number) * ((re[bin] as number) ** 2 + (im[bin] as number) ** 2);
      }
      bands[b] = Math.log(sum + 1e-10);
    }
    for (let c = 0; c <= CEPSTRA; c++) {
      const basis = dct[c] as Float64Array;
      let sum = 0;
      for (let b = 0; b < MEL_BANDS; b++) sum += (bands[b] as number) * (basis[b] as number);
      if (c === 0) energy[f] = sum;
      else cepstra[f * CEPSTRA + c - 1] = sum;
    }
  }
  return { cepstra, energy, count };
}
