// One recogniser set-up for the browser voice mode and bench/perio-voice (ADR 0014): SoundSwallower
// (PocketSphinx in WebAssembly) with the en-us or fr-fr acoustic model shipped in the npm package,
// the JSGF grammar of voice-grammar.ts and the missing pronunciations. Both models are 8 kHz-band
// (upperf 3700 Hz), so audio is decoded at 8 kHz: a browser's 48 kHz stream is downsampled first.

import type { Decoder, SoundSwallowerModule } from "soundswallower";
import { jsgfGrammar, LEXICONS, type VoiceLanguage } from "./voice-grammar.ts";

export const VOICE_SAMPLE_RATE = 8000;

/**
 * Decoder settings chosen on the development takes (0–9) of the shared digit recordings: a higher
 * silence and filler probability stop the pauses between digits being heard as extra digits.
 */
export const DECODER_SETTINGS = { samprate: VOICE_SAMPLE_RATE, nfft: 256, silprob: 0.1, fillprob: 0.1, loglevel: "FATAL" };

export const ACOUSTIC_MODELS: Record<VoiceLanguage, string> = { en: "en-us", fr: "fr-fr" };

/**
 * Experiment knobs for bench/perio-voice/tune.ts only: the app and run.ts always use the defaults, so
 * what is measured is what ships.
 */
export type RecogniserOptions = {
  settings?: Record<string, string | number | boolean>;
  extraWords?: [string, string][];
  /** Leaves out pronunciations the lexicon adds, to measure what each one does. */
  withoutWords?: string[];
  fullUtt?: boolean;
  normalise?: number;
  weights?: { digit: number; teen: number };
  frontEnd?: Record<string, string | number | boolean>;
};

export async function createPerioDecoder(
  ss: SoundSwallowerModule,
  lang: VoiceLanguage,
  opts: RecogniserOptions = {},
): Promise<Decoder> {
  const decoder = new ss.Decoder({ ...DECODER_SETTINGS, ...opts.settings, hmm: ss.get_model_path(ACOUSTIC_MODELS[lang]) });
  await decoder.initialize();
  // initialize() overwrites the front-end keys with the model's feat_params.json, so front-end
  // changes (remove_noise, cmn) only take effect when set afterwards and the audio path rebuilt.
  const frontEnd = Object.entries(opts.frontEnd ?? {});
  if (frontEnd.length > 0) {
    for (const [k, v] of frontEnd) decoder.set_config(k, v as string | number);
    await decoder.reinitialize_audio();
  }
  const lexicon = LEXICONS[lang].extraWords.filter(([w]) => !opts.withoutWords?.includes(w));
  decoder.add_words(...lexicon, ...(opts.extraWords ?? []));
  decoder.set_grammar(jsgfGrammar(lang, opts.weights));
  return decoder;
}

/** Decodes one utterance (already at VOICE_SAMPLE_RATE) fed in `chunk`-sample pieces, as a stream would. */
export function decodeUtterance(
  decoder: Decoder,
  input: Float32Array,
  opts: RecogniserOptions = {},
  chunk = 800,
): { text: string; confidence: number; finalizeMs: number } {
  let last = 0;
  if (opts.fullUtt) {
    last = performance.now();
    const audio = opts.normalise ? normalisePeak(input, opts.normalise) : input;
    decoder.start();
    decoder.process_audio(audio, false, true);
  } else {
    const audio = opts.normalise ? normalisePeak(input, opts.normalise) : input;
    decoder.start();
    for (let i = 0; i < audio.length; i += chunk) {
      const piece = audio.subarray(i, Math.min(audio.length, i + chunk));
      if (i + chunk >= audio.length) {
        // The end of the utterance: from here to the text is what the user waits for.
        last = performance.now();
      }
      decoder.process_audio(piece, false, false);
    }
  }
  if (last === 0) last = performance.now();
  decoder.stop();
  const text = decoder.get_text();
  const confidence = wordConfidence(decoder);
  return { text, confidence, finalizeMs: performance.now() - last };
}

/**
 * The lowest posterior probability of a spoken word in the result (1 when nothing was said). Measured
 * by the bench, not used to reject: on the tuning takes it does not separate right from wrong results
 * (ADR 0014), so a threshold would throw away right values about as often as wrong ones.
 */
export function wordConfidence(decoder: Decoder): number {
  const words = (decoder.get_alignment().w ?? []).filter((w) => !FILLERS.test(w.t));
  return words.reduce((min, w) => Math.min(min, w.p), 1);
}
const FILLERS = /^(\(NULL\)|<sil>|<s>|<\/s>|\[[A-Z]+\])$/;

/** Scales an utterance so its peak is `peak` (full scale 1). */
export function normalisePeak(audio: Float32Array, peak: number): Float32Array {
  let max = 0;
  for (const v of audio) max = Math.max(max, Math.abs(v));
  if (max === 0) return audio;
  const g = peak / max;
  return audio.map((v) => v * g);
}

/** Linear-phase low-pass then linear interpolation: any rate to 8 kHz without aliasing above 4 kHz. */
export function resampleTo(audio: Float32Array, fromRate: number, toRate = VOICE_SAMPLE_RATE): Float32Array {
  if (fromRate === toRate) return audio;
  let src = audio;
  if (fromRate > toRate) {
    const cutoff = (0.45 * toRate) / fromRate;
    const taps = 31;
    const h = new Float32Array(taps);
    let sum = 0;
    for (let k = 0; k < taps; k++) {
      const m = k - (taps - 1) / 2;
      const sinc = m === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * m) / (Math.PI * m);
      h[k] = sinc * (0.54 - 0.46 * Math.cos((2 * Math.PI * k) / (taps - 1)));
      sum += h[k] as number;
    }
    src = new Float32Array(audio.length);
    for (let i = 0; i < audio.length; i++) {
      let acc = 0;
      for (let k = 0; k < taps; k++) {
        const j = i + k - (taps - 1) / 2;
        if (j >= 0 && j < audio.length) acc += (audio[j] as number) * (h[k] as number);
      }
      src[i] = acc / sum;
    }
  }
  const outLength = Math.floor((src.length * toRate) / fromRate);
  const out = new Float32Array(outLength);
  for (let i = 0; i < outLength; i++) {
    const pos = (i * fromRate) / toRate;
    const j = Math.floor(pos);
    const f = pos - j;
    out[i] = (src[j] as number) * (1 - f) + (src[Math.min(j + 1, src.length - 1)] as number) * f;
  }
  return out;
}
