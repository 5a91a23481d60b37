import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseDialogue } from "#app/services/onboarding/sample-visit/dialogue.ts";
import { sampleVisitAudioPath } from "#app/services/onboarding/sample-visit.server.ts";
import { normaliseAudio } from "#app/services/speech/audio.server.ts";
import type { EngineRegistry, SpeechEngine } from "#app/services/speech/engine.ts";
import { isSpeechError } from "#app/services/speech/errors.ts";
import { wer } from "#app/services/speech/wer.ts";
import type { WhisperEngine } from "#app/services/speech/whisper.server.ts";
import type { Logger } from "#app/utils/logger.server.ts";

/** What the diagnostics and settings pages show per configured engine (issue 15 §3). */
export interface EngineReport {
  id: string;
  languages: string[];
  /** The loaded model as transcripts record it (e.g. "base.en@137c4040"); null until known. */
  model: string | null;
  /** A refused local model: stable code for the translated message, and the detail for the owner. */
  refusal: { code: string; reason: string } | null;
  /** Word error rate on the bundled sample visit (60 s, two espeak-ng voices), measured in the background. */
  sampleWer:
    | { state: "measuring" }
    | { state: "done"; wer: number; model: string | null }
    | { state: "failed"; code: string }
    | null;
}

interface Measurement {
  state: "measuring" | "done" | "failed";
  wer?: number;
  model?: string | null;
  code?: string;
}

// Per process, per engine and model: a measurement costs a full decode of the 60 s sample, so
// it runs once in the background and page loads only read this map (never wait for it).
const measurements = new Map<string, Measurement>();

function isWhisper(engine: SpeechEngine): engine is WhisperEngine {
  return engine.id === "whisper" && "status" in engine;
}

async function sampleReference(): Promise<string> {
  const source = await readFile(join(dirname(sampleVisitAudioPath()), "dialogue.en.txt"), "utf8");
  return parseDialogue(source)
    .map((turn) => turn.text)
    .join(" ");
}

async function measure(engine: SpeechEngine, key: string): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "murmur-sample-wer-"));
  try {
    const audio = await normaliseAudio(sampleVisitAudioPath(), join(dir, "sample.wav"));
    const result = await engine.transcribe(audio.path, { language: "en" });
    measurements.set(key, { state: "done", wer: wer(await sampleReference(), result.text), model: result.model ?? null });
  } catch (error) {
    measurements.set(key, { state: "failed", code: isSpeechError(error) ? error.code : "engine_failed" });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * One report per configured engine. `measureSample` starts the sample-visit WER measurement for
 * an engine that has none yet (it needs the CPU of a decode: the pages pass it only for people
 * who may cause that, owners and diagnostics users).
 */
export async function reportEngines(registry: EngineRegistry, options: { measureSample: boolean }): Promise<EngineReport[]> {
  const reports: EngineReport[] = [];
  for (const engine of registry.engines) {
    let model: string | null = engine.model ?? null;
    let refusal: EngineReport["refusal"] = null;
    if (isWhisper(engine)) {
      const status = await engine.status();
      if (status.ok) model = status.model.label;
      else refusal = { code: status.code, reason: status.reason };
    }
    const key = `${engine.id}|${model ?? ""}`;
    let measurement = measurements.get(key);
    if (!measurement && options.measureSample && !refusal && engine.supports("en")) {
      measurement = { state: "measuring" };
      measurements.set(key, measurement);
      void measure(engine, key);
    }
    reports.push({
      id: engine.id,
      languages: [...engine.languages],
      model: model ?? (measurement?.state === "done" ? (measurement.model ?? null) : null),
      refusal,
      sampleWer: !measurement
        ? null
        : measurement.state === "done"
          ? { state: "done", wer: measurement.wer ?? 0, model: measurement.model ?? null }
          : measurement.state === "failed"
            ? { state: "failed", code: measurement.code ?? "engine_failed" }
            : { state: "measuring" },
    });
  }
  return reports;
}

/** At start-up: says in the log which Whisper model each engine verified, or why it refused it. */
export function logWhisperModels(registry: EngineRegistry, logger: Logger): void {
  for (const engine of registry.engines) {
    if (!isWhisper(engine)) continue;
    void engine.status().then((status) => {
      if (status.ok)
        logger.info({ engine: engine.id, model: status.model.label, path: status.model.path }, "speech model verified");
      else logger.warn({ engine: engine.id, code: status.code, reason: status.reason }, "speech model refused");
    });
  }
}
