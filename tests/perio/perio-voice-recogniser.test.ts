import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import createModule from "soundswallower";
import { describe, expect, it } from "vitest";
import { parseVoice } from "#app/services/perio/voice-grammar.ts";
import { createPerioDecoder, decodeUtterance, resampleTo, VOICE_SAMPLE_RATE } from "#app/services/perio/voice-recogniser.ts";
import { align, readWav } from "#bench/perio-voice/corpus.ts";
import { haveEspeak } from "#tests/speech/synth.ts";

// The recogniser the chart and bench/perio-voice share (issue 14; ADR 0014), on real synthesised
// speech: espeak-ng says a triplet and a command and SoundSwallower decodes them with the chart
// grammar, streamed in 100 ms pieces like the microphone's.

function speak(voice: string, text: string): Float32Array {
  const path = join(mkdtempSync(join(tmpdir(), "murmur-voice-")), "say.wav");
  execFileSync("espeak-ng", ["-v", voice, "-s", "150", "-w", path, text]);
  const { samples, rate } = readWav(path);
  const audio = resampleTo(samples, rate, VOICE_SAMPLE_RATE);
  // A quiet room: a little noise, as a microphone never delivers digital silence.
  const out = new Float32Array(audio.length + VOICE_SAMPLE_RATE);
  out.set(audio, VOICE_SAMPLE_RATE / 2);
  let seed = 7;
  for (let i = 0; i < out.length; i++) {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    out[i] = (out[i] as number) + (seed / 2 ** 32 - 0.5) * 0.003;
  }
  return out;
}

describe("voice recogniser on speech", () => {
  it.skipIf(!haveEspeak)(
    "reads a spoken triplet and a command and reports a word confidence",
    async () => {
      const modelBase = new URL("../../node_modules/soundswallower/model/", import.meta.url).pathname;
      const ss = await createModule({ modelBase } as Parameters<typeof createModule>[0]);
      const decoder = await createPerioDecoder(ss, "en");
      try {
        const cases = [
          ["four. two. four", { kind: "values", values: [4, 2, 4] }],
          ["three. two. three", { kind: "values", values: [3, 2, 3] }],
          ["bleeding", { kind: "flag", flag: "bop" }],
        ] as const;
        for (const [said, expected] of cases) {
          const { text, confidence, finalizeMs } = decodeUtterance(decoder, speak("en-us", said));
          expect(parseVoice(text, "en"), said).toEqual(expected);
          expect(confidence).toBeGreaterThan(0);
          expect(confidence).toBeLessThanOrEqual(1);
          expect(finalizeMs).toBeLessThan(300);
        }
      } finally {
        decoder.delete();
      }
    },
    30_000,
  );
});

describe("bench alignment", () => {
  it("counts substitutions, deletions and insertions separately", () => {
    expect(align([3, 2, 3], [3, 2, 3])).toEqual([]);
    expect(align([3, 2, 3], [3, 8, 3])).toEqual([{ ref: 2, hyp: 8 }]);
    expect(align([3, 2, 3], [3, 3])).toEqual([{ ref: 2, hyp: null }]);
    expect(align([4], [4, 1])).toEqual([{ ref: null, hyp: 1 }]);
    expect(align([2, 2, 8], [])).toHaveLength(3);
  });
});
