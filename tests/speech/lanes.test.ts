import { join } from "node:path";
import { expect, it } from "vitest";
import { normaliseAudio } from "#app/services/speech/audio.server.ts";
import type { SpeechEngine } from "#app/services/speech/engine.ts";
import { transcribeLongAudio } from "#app/services/speech/long-audio.server.ts";
import { hashingEngine } from "./hashing-engine.ts";
import { ffmpeg, readSentences, speak, withTempDir } from "./synth.ts";

// Issue 26 "long uploads on every core": windows decoded in two lanes at once give the same
// transcript as in order, and the decodes really overlap.

/** The hashing engine, slowed so that concurrency shows, counting decodes in flight. */
function slowHashing(): SpeechEngine & { decodes: number; maxInFlight: number } {
  const inner = hashingEngine();
  let inFlight = 0;
  const engine = {
    ...inner,
    maxInFlight: 0,
    get decodes() {
      return inner.decodes;
    },
    async transcribe(...args: Parameters<SpeechEngine["transcribe"]>) {
      inFlight += 1;
      engine.maxInFlight = Math.max(engine.maxInFlight, inFlight);
      try {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return await inner.transcribe(...args);
      } finally {
        inFlight -= 1;
      }
    },
  };
  return engine;
}

it("two lanes give the in-order transcript, decoding two windows at once (plus one warm-up window)", async () => {
  await withTempDir(async (dir) => {
    const sentences = readSentences("bench/asr/clinical-sentences.txt").slice(0, 14);
    const spoken = speak(sentences.join(". "), join(dir, "speech.wav"));
    ffmpeg(["-i", spoken, "-ac", "1", "-ar", "16000", join(dir, "speech-16k.wav")]);
    const { path } = await normaliseAudio(join(dir, "speech-16k.wav"), join(dir, "audio.wav"));

    const inOrder = slowHashing();
    const one = await transcribeLongAudio(inOrder, path, { language: "en", carry: {} });
    const parallel = slowHashing();
    const progress: number[] = [];
    const two = await transcribeLongAudio(parallel, path, {
      language: "en",
      carry: {},
      lanes: 2,
      onProgress: (p) => progress.push(p),
    });

    expect(inOrder.decodes).toBeGreaterThanOrEqual(5);
    expect(two.segments).toEqual(one.segments);
    expect(inOrder.maxInFlight).toBe(1);
    expect(parallel.maxInFlight).toBe(2);
    expect(parallel.decodes).toBe(inOrder.decodes + 1);
    expect(progress.at(-1)).toBe(1);
  });
}, 60_000);
