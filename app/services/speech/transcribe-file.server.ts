import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TranscribePort } from "#app/services/jobs/transcribe-visit.server.ts";
import { normaliseAudio } from "./audio.server.ts";
import type { EngineRegistry } from "./engine.ts";
import { transcribeLongAudio } from "./long-audio.server.ts";

/**
 * The transcription job's port (issue 5 "Pipeline"): any accepted recording → 16 kHz mono WAV in a
 * scratch folder → the configured engine for the visit's language, window by window → segments in
 * absolute time. A language without an engine and unreadable audio fail the visit at once
 * (SpeechError, not retryable); engine hiccups are retried by the job.
 */
export function createTranscribePort(registry: EngineRegistry): TranscribePort {
  return async (audioPath, language, options) => {
    const engine = registry.require(language);
    const scratch = await mkdtemp(join(tmpdir(), "murmur-transcribe-"));
    try {
      const wavPath = join(scratch, "audio.wav");
      await normaliseAudio(audioPath, wavPath);
      const result = await transcribeLongAudio(engine, wavPath, {
        language,
        signal: options.signal,
        onProgress: options.onProgress,
        carry: {},
      });
      return {
        text: result.text,
        segments: result.segments.map((s) => ({ start: s.start, end: s.end, text: s.text })),
        engine: result.engine,
        model: result.model ?? null,
      };
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  };
}
