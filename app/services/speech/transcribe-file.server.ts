import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import type { LiveTranscribePort } from "#app/services/jobs/transcribe-live.server.ts";
import type { TranscribePort } from "#app/services/jobs/transcribe-visit.server.ts";
import { normaliseAudio } from "./audio.server.ts";
import { segmentConfidence } from "./confidence.ts";
import { diariseSegments } from "./diarise/diarise.server.ts";
import type { EngineRegistry } from "./engine.ts";
import { SpeechError } from "./errors.ts";
import { transcribeLongAudio, transcribeSettledWindows } from "./long-audio.server.ts";
import type { OrgVocabulary } from "./org-vocab/model-cache.server.ts";
import { energyEnvelope, readWavInfo } from "./wav.server.ts";

/**
 * The transcription job's port (issue 5 "Pipeline"): any accepted recording → 16 kHz mono WAV in a
 * scratch folder → the configured engine for the visit's language, window by window → segments in
 * absolute time. A language without an engine and unreadable audio fail the visit at once
 * (SpeechError, not retryable); engine hiccups are retried by the job.
 */
export function createTranscribePort(registry: EngineRegistry, vocabularies: VocabularySource = {}): TranscribePort {
  return async (audioPath, language, options) => {
    const engine = registry.require(language);
    const vocabulary = await vocabularyOf(vocabularies, options.orgId);
    return withWav(audioPath, async (wavPath) => {
      // Issue 26: digital silence is refused before any decoder runs.
      if (await isSilent(wavPath)) throw new SpeechError("audio_no_speech", "the recording is silent");
      const result = await transcribeLongAudio(engine, wavPath, {
        language,
        signal: options.signal,
        onProgress: options.onProgress,
        carry: {},
        cache: options.cache,
        vocabulary,
        // Issue 26: an upload is decoded on every core (the embedded engine; Whisper threads itself).
        lanes: engine.id === "pocketsphinx" ? availableParallelism() : 1,
      });
      // Issue 26: a recording with no words in it (silence, music only) fails with a reason, not an empty transcript.
      if (result.text.trim() === "") throw new SpeechError("audio_no_speech", "no words were recognised in the recording");
      // Who said what, from the recording's voices and the words, whatever the engine (issue 26).
      const speakers = await diariseSegments(wavPath, result.segments);
      return {
        text: result.text,
        segments: result.segments.map((s, i) => {
          const confidence = segmentConfidence(s.text, s.words);
          const speaker = speakers[i] ?? null;
          return confidence
            ? { start: s.start, end: s.end, text: s.text, confidence, speaker }
            : { start: s.start, end: s.end, text: s.text, speaker };
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
export function createLiveTranscribePort(registry: EngineRegistry, vocabularies: VocabularySource = {}): LiveTranscribePort {
  return async (audioPath, language, options) => {
    const selection = registry.pick(language);
    if (!selection.ok) return { decoded: 0, settled: 0 };
    // The same vocabulary as the job after Stop, so the windows decoded now are the ones it keeps.
    const vocabulary = await vocabularyOf(vocabularies, options.orgId);
    return withWav(audioPath, (wavPath) =>
      transcribeSettledWindows(selection.engine, wavPath, {
        language,
        signal: options.signal,
        carry: {},
        cache: options.cache,
        vocabulary,
      }),
    );
  };
}

/** Where a port finds an organisation's vocabulary (the runtime reads it from the database). */
export interface VocabularySource {
  vocabularyFor?: (orgId: string) => Promise<OrgVocabulary | null>;
}

async function vocabularyOf(source: VocabularySource, orgId: string | undefined): Promise<OrgVocabulary | undefined> {
  if (!orgId || !source.vocabularyFor) return undefined;
  return (await source.vocabularyFor(orgId)) ?? undefined;
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

/**
 * No 10 ms frame louder than a mean amplitude of 64 (of 32,768: about −54 dBFS, below any room
 * microphone's noise floor): nothing was recorded, so no engine could hear a word.
 */
const SILENCE_MEAN_AMPLITUDE = 64;

async function isSilent(wavPath: string): Promise<boolean> {
  const envelope = await energyEnvelope(wavPath, await readWavInfo(wavPath));
  return envelope.every((frame) => frame < SILENCE_MEAN_AMPLITUDE);
}
