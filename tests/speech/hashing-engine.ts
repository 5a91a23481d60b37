import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { SpeechEngine, TranscriptSegment } from "#app/services/speech/engine.ts";
import { ffmpeg, readSentences, speak } from "./synth.ts";

// For the "transcribe while recording" suites: an engine that names each second of audio by a
// hash of its samples, so any difference between decoding a prefix of a recording and decoding
// all of it shows in the transcript, and that counts its decodes.

export const WINDOW = { windowSec: 12, overlapSec: 2 };

export function hashingEngine(): SpeechEngine & { decodes: number } {
  const engine = {
    id: "hashing",
    languages: ["en"] as const,
    window: WINDOW,
    decodes: 0,
    supports: (language: string) => language === "en",
    async transcribe(audio: string | Uint8Array, options: { language: string; carry?: Record<string, unknown> }) {
      engine.decodes += 1;
      const bytes = typeof audio === "string" ? await readFile(audio) : Buffer.from(audio);
      const pcm = bytes.subarray(44);
      const perSecond = 32_000;
      const segments: TranscriptSegment[] = [];
      for (let at = 0; at + perSecond <= pcm.byteLength; at += perSecond) {
        const word = createHash("sha256")
          .update(pcm.subarray(at, at + perSecond))
          .digest("hex")
          .slice(0, 8);
        const start = at / perSecond;
        segments.push({ start, end: start + 1, text: word, words: [{ start, end: start + 1, word }] });
      }
      // State carried from window to window, as pocketsphinx's cepstral mean is.
      if (options.carry) options.carry.windows = Number(options.carry.windows ?? 0) + 1;
      return { text: segments.map((s) => s.text).join(" "), segments, engine: "hashing", language: options.language };
    },
  };
  return engine;
}

/** A ~70 s opus-in-webm recording (what MediaRecorder sends), cut into byte slices like its timeslice chunks. */
export async function recordingSlices(dir: string): Promise<Buffer[]> {
  const sentences = readSentences("bench/asr/clinical-sentences.txt").slice(0, 14);
  const wav = speak(sentences.join(". "), join(dir, "speech.wav"));
  const webm = join(dir, "visit.webm");
  ffmpeg(["-i", wav, "-c:a", "libopus", "-b:a", "32k", webm]);
  const bytes = await readFile(webm);
  const slices: Buffer[] = [];
  const size = Math.ceil(bytes.byteLength / 14);
  for (let at = 0; at < bytes.byteLength; at += size) slices.push(bytes.subarray(at, at + size));
  return slices;
}
