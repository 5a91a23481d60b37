import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LiveTranscribePort } from "#app/services/jobs/transcribe-live.server.ts";
import type { TranscribePort } from "#app/services/jobs/transcribe-visit.server.ts";
import { normaliseAudio } from "./audio.server.ts";
import { segmentConfidence } from "./confidence.ts";
import type { EngineRegistry } from "./engine.ts";
import { transcribeLongAudio, transcribeSettledWindows } from "./long-audio.server.ts";

/**
 * The transcription job's port (issue 5 "Pipeline"): any accepted recording → 16 kHz mono WAV in a
 * scratch folder → the configured engine for the visit's language, window by window → segments in
 * absolute time. A language without an engine and unreadable audio fail the visit at once
 * (SpeechError, not retryable); engine hiccups are retried by the job.
 */
export function createTranscribePort(registry: EngineRegistry): TranscribePort {
  return async (audioPath, language, options) => {
    const engine = registry.require(language);
    return withWav(audioPath, async (wavPath) => {
      const result = await transcribeLongAudio(engine, wavPath, {
        language,
        signal: options.signal,
        onProgress: options.onProgress,
        carry: {},
        cache: options.cache,
      });
      return {
        text: result.text,
        segments: result.segments.map((s) => {
          const confidence = segmentConfidence(s.text, s.words);
          return confidence
            ? { start: s.start, end: s.end, text: s.text, confidence }
            : { start: s.start, end: s.end, text: s.text };
        }),
        engine: result.engine,
        model: result.model ?? null,
      };
    });
  };
}

/**
 * The live job's port: the audio received so far → the windows that are settled, into the cache.
 * A language without an engine decodes nothing now (the job after Stop reports it).
 */
export function createLiveTranscribePort(registry: EngineRegistry): LiveTranscribePort {
  return async (audioPath, language, options) => {
    const selection = registry.pick(language);
    if (!selection.ok) return { decoded: 0, settled: 0 };
    return withWav(audioPath, (wavPath) =>
      transcribeSettledWindows(selection.engine, wavPath, { language, signal: options.signal, carry: {}, cache: options.cache }),
    );
  };
}

async function withWav<T>(audioPath: string, fn: (wavPath: string) => Promise<T>): Promise<T> {
  const scratch = await mkdtemp(join(tmpdir(), "murmur-transcribe-"));
  try {
    const wavPath = join(scratch, "audio.wav");
    await normaliseAudio(audioPath, wavPath);
    return await fn(wavPath);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
