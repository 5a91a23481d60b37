import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEngineRegistry } from "#app/services/speech/engine.ts";
import { createLiveTranscribePort, createTranscribePort } from "#app/services/speech/transcribe-file.server.ts";
import { memoryWindowCache } from "#app/services/speech/window-cache.ts";
import { hashingEngine, recordingSlices, WINDOW } from "./hashing-engine.ts";
import { readSentences, speak, withTempDir } from "./synth.ts";

// Issue 5 "Transcribe while recording": windows decoded from the audio received so far are reused
// after Stop only when they are exactly what the whole recording gives. The engine here names
// each second of audio by a hash of its samples, so any difference between decoding a prefix of
// the recording and decoding all of it would show up in the transcript.

describe("transcription while recording", () => {
  it("decodes settled windows as chunks arrive, and after Stop decodes only what is left, with the same transcript", async () => {
    await withTempDir(async (dir) => {
      const slices = await recordingSlices(dir);
      const engine = hashingEngine();
      const registry = createEngineRegistry([engine]);
      const live = createLiveTranscribePort(registry);
      const transcribe = createTranscribePort(registry);
      const cache = memoryWindowCache();

      let liveDecodes = 0;
      for (let n = 1; n <= slices.length; n++) {
        const prefix = join(dir, `prefix-${n}.webm`);
        await writeFile(prefix, Buffer.concat(slices.slice(0, n)));
        liveDecodes += (await live(prefix, "en", { cache })).decoded;
      }
      const whole = join(dir, "whole.webm");
      await writeFile(whole, Buffer.concat(slices));

      const before = engine.decodes;
      const streamed = await transcribe(whole, "en", { cache });
      const afterStop = engine.decodes - before;

      const reference = await createTranscribePort(createEngineRegistry([hashingEngine()]))(whole, "en", {});
      expect(streamed).toEqual(reference);
      const windows = Math.round(reference.segments.length / (WINDOW.windowSec - WINDOW.overlapSec));
      expect(windows).toBeGreaterThanOrEqual(5);
      expect(liveDecodes).toBeGreaterThanOrEqual(windows - 3);
      // Only the last windows, which grew until Stop, are decoded after it.
      expect(afterStop).toBeLessThanOrEqual(2);
      expect(afterStop).toBeGreaterThanOrEqual(1);
    });
  }, 60_000);

  it("never reuses a window whose audio differs: another recording decodes in full", async () => {
    await withTempDir(async (dir) => {
      const slices = await recordingSlices(dir);
      const engine = hashingEngine();
      const registry = createEngineRegistry([engine]);
      const cache = memoryWindowCache();
      const prefix = join(dir, "prefix.webm");
      await writeFile(prefix, Buffer.concat(slices.slice(0, 10)));
      expect((await createLiveTranscribePort(registry)(prefix, "en", { cache })).decoded).toBeGreaterThan(0);

      // The same words at another speed: no window matches.
      const other = join(dir, "other.wav");
      speak(readSentences("bench/asr/clinical-sentences.txt").slice(0, 14).join(". "), other, undefined, 170);
      const before = engine.decodes;
      const result = await createTranscribePort(registry)(other, "en", { cache });
      const decodedNow = engine.decodes - before;
      const reference = await createTranscribePort(createEngineRegistry([hashingEngine()]))(other, "en", {});
      expect(result).toEqual(reference);
      expect(decodedNow).toBeGreaterThanOrEqual(5);
    });
  }, 60_000);

  it("a language without an engine decodes nothing while recording (the job after Stop reports it)", async () => {
    await withTempDir(async (dir) => {
      const slices = await recordingSlices(dir);
      const path = join(dir, "prefix.webm");
      await writeFile(path, Buffer.concat(slices));
      const result = await createLiveTranscribePort(createEngineRegistry([hashingEngine()]))(path, "fr", {
        cache: memoryWindowCache(),
      });
      expect(result).toEqual({ decoded: 0, settled: 0 });
    });
  });
});
