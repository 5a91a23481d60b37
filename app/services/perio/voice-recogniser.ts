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

export async function createPerioDecoder(ss: SoundSwallowerModule, lang: VoiceLanguage): Promise<Decoder> {
  const decoder = new ss.Decoder({ ...DECODER_SETTINGS, hmm: ss.get_model_path(ACOUSTIC_MODELS[lang]) });
  await decoder.initialize();
  decoder.add_words(...LEXICONS[lang].extraWords);
  decoder.set_grammar(jsgfGrammar(lang));
  return decoder;
}

/** Decodes one utterance (already at VOICE_SAMPLE_RATE) fed in `chunk`-sample pieces, as a stream would. */
export function decodeUtterance(decoder: Decoder, audio: Float32Array, chunk = 800): { text: string; finalizeMs: number } {
  decoder.start();
  let last = 0;
  for (let i = 0; i < audio.length; i += chunk) {
    const piece = audio.subarray(i, Math.min(audio.length, i + chunk));
    if (i + chunk >= audio.length) {
      // The end of the utterance: from here to the text is what the user waits for.
      last = performance.now();
    }
    decoder.process_audio(piece, false, false);
  }
  if (last === 0) last = performance.now();
  decoder.stop();
  const text = decoder.get_text();
  return { text, finalizeMs: performance.now() - last };
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
