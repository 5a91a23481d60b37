import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { EngineAudio, SpeechEngine, TranscribeOptions, TranscriptResult } from "#app/services/speech/engine.ts";
import { baseLanguage } from "#app/services/speech/engine.ts";
import { SpeechError, type SpeechErrorCode } from "#app/services/speech/errors.ts";
import { createLimiter } from "#app/services/speech/limiter.ts";
import { transcribeLongAudio } from "#app/services/speech/long-audio.server.ts";
import { lastLine, runProcess } from "#app/services/speech/process.server.ts";
import { readWavInfo } from "#app/services/speech/wav.server.ts";
import { readWhisperHeader, verifyWhisperModel, type WhisperModelInfo } from "#app/services/speech/whisper-model.server.ts";
import { groupWords, type WorkerLine } from "#app/services/speech/whisper-output.ts";
import { whisperPrompt } from "#app/services/speech/whisper-prompt.ts";
import { MAX_CUT_SLACK_SEC } from "#app/services/speech/windows.ts";

/** The visit languages Murmur offers; a multilingual model serves all of them, a ".en" model English. */
const APP_LANGUAGES = ["en", "fr", "es"] as const;

export interface WhisperConfig {
  modelPath: string;
  /** Accept a file whose SHA-1 is not in the published list (tests, development; never production). */
  allowUnknown?: boolean;
  /** whisper.cpp threads per decode. Default: all cores but one, so the web process keeps one. */
  threads?: number;
  /** Concurrent decodes per engine (limiter.ts). 1: a decode already uses the threads above. */
  maxConcurrent?: number;
  /** Default: 60 s (model load) + 4 × the audio's duration. */
  timeoutMs?: number;
  /** When the model cannot be used, say so in supports() so the registry falls back (ASR_ENGINE=auto). */
  fallBackWhenUnusable?: boolean;
}

export interface WhisperEngine extends SpeechEngine {
  /** The verified model, or the refusal (stable code + reason) the diagnostics page shows. */
  status(): Promise<{ ok: true; model: WhisperModelInfo } | { ok: false; code: SpeechErrorCode; reason: string }>;
}

function workerScript(): string {
  const candidates = [
    fileURLToPath(new URL("./whisper-worker.ts", import.meta.url)),
    resolve("app/services/speech/whisper-worker.ts"),
  ];
  return candidates.find((p) => existsSync(p)) ?? (candidates[1] as string);
}

export function createWhisperEngine(config: WhisperConfig): WhisperEngine {
  const limit = createLimiter(config.maxConcurrent ?? 1);
  const threads = config.threads ?? Math.max(1, availableParallelism() - 1);
  const allowUnknown = config.allowUnknown ?? false;

  // Languages come from the header (cheap, synchronous); the checksum is verified in the
  // background from now on and awaited before the first decode.
  let headerError: SpeechError | null = null;
  let multilingual = false;
  try {
    multilingual = readWhisperHeader(config.modelPath).multilingual;
  } catch (error) {
    headerError = error instanceof SpeechError ? error : new SpeechError("model_corrupt", String(error));
  }
  const languages: readonly string[] = multilingual ? APP_LANGUAGES : ["en"];
  let verification: Promise<WhisperModelInfo> | null = null;
  let refused: SpeechError | null = headerError;
  const verify = () => {
    if (headerError) return Promise.reject(headerError);
    verification ??= verifyWhisperModel(config.modelPath, { allowUnknown });
    return verification.then(
      (info) => {
        refused = null;
        return info;
      },
      (error: unknown) => {
        verification = null; // a fixed file is picked up on the next call
        refused = error instanceof SpeechError ? error : new SpeechError("model_corrupt", String(error));
        throw refused;
      },
    );
  };
  if (!headerError) verify().catch(() => undefined);

  async function decode(
    wavPath: string,
    durationSec: number,
    lang: string,
    options: TranscribeOptions,
  ): Promise<TranscriptResult> {
    const model = await verify();
    const lines: WorkerLine[] = [];
    let workerError: { code: string; message: string } | null = null;
    const result = await runProcess(
      process.execPath,
      [
        workerScript(),
        JSON.stringify({
          model: model.path,
          wav: wavPath,
          language: lang,
          threads,
          words: true,
          prompt: whisperPrompt(options.vocabulary, lang),
        }),
      ],
      {
        timeoutMs: config.timeoutMs ?? 60_000 + Math.ceil(durationSec * 4000),
        signal: options.signal,
        onStdoutLine: (line) => {
          if (!line.startsWith("{")) return;
          const parsed = JSON.parse(line) as WorkerLine;
          if (parsed.type === "error") workerError = { code: parsed.code, message: parsed.message };
          else lines.push(parsed);
        },
        missingCode: "engine_unavailable",
        timeoutCode: "engine_timeout",
        failureCode: "engine_failed",
      },
    );
    const failure = workerError as { code: string; message: string } | null;
    if (failure) {
      const code: SpeechErrorCode =
        failure.code === "model_corrupt" || failure.code === "audio_unreadable" || failure.code === "engine_unavailable"
          ? failure.code
          : "engine_failed";
      throw new SpeechError(code, failure.message);
    }
    if (result.exitCode !== 0 || !lines.some((l) => l.type === "done")) {
      throw new SpeechError("engine_failed", lastLine(result.stderr) || `whisper worker exited with ${result.exitCode}`);
    }
    const segments = groupWords(lines, durationSec);
    for (const segment of segments) options.onSegment?.(segment);
    return { text: segments.map((s) => s.text).join(" "), segments, engine: "whisper", model: model.label, language: lang };
  }

  const engine: WhisperEngine = {
    id: "whisper",
    languages,
    // whisper.cpp decodes 30 s at a time itself and carries its text context across them; one
    // process per 2 minutes pays the model load once per four of its windows.
    window: { windowSec: 120, overlapSec: 2 },
    supports(language) {
      if (config.fallBackWhenUnusable && refused) return false;
      return languages.includes(baseLanguage(language));
    },
    async transcribe(audio: EngineAudio, options: TranscribeOptions) {
      const lang = baseLanguage(options.language);
      if (!languages.includes(lang)) {
        throw new SpeechError(
          "no_engine_for_language",
          `the Whisper model ${multilingual ? "" : "(English-only) "}has no "${lang}"`,
        );
      }
      let scratch: string | null = null;
      try {
        let path: string;
        if (typeof audio === "string") {
          path = audio;
        } else {
          scratch = await mkdtemp(join(tmpdir(), "murmur-whisper-"));
          path = join(scratch, "audio.wav");
          await writeFile(path, audio);
        }
        const info = await readWavInfo(path);
        if (info.sampleRate !== 16_000 || info.channels !== 1 || info.bitsPerSample !== 16) {
          throw new SpeechError(
            "audio_unreadable",
            `whisper needs 16 kHz mono 16-bit WAV, got ${info.sampleRate} Hz × ${info.channels} × ${info.bitsPerSample} bit`,
          );
        }
        if (info.durationSec > engine.window.windowSec + 2 * MAX_CUT_SLACK_SEC + 1)
          return await transcribeLongAudio(engine, path, options);
        const wav = path;
        return await limit(() => decode(wav, info.durationSec, lang, options), options.signal);
      } finally {
        if (scratch) await rm(scratch, { recursive: true, force: true });
      }
    },
    async status() {
      try {
        return { ok: true, model: await verify() };
      } catch (error) {
        const e = error instanceof SpeechError ? error : new SpeechError("model_corrupt", String(error));
        return { ok: false, code: e.code, reason: e.reason };
      }
    },
  };
  return engine;
}
