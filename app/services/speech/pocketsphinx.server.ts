import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type {
  EngineAudio,
  SpeechEngine,
  TranscribeOptions,
  TranscriptResult,
  TranscriptSegment,
} from "#app/services/speech/engine.ts";
import { baseLanguage } from "#app/services/speech/engine.ts";
import { SpeechError } from "#app/services/speech/errors.ts";
import { createLimiter } from "#app/services/speech/limiter.ts";
import { transcribeLongAudio } from "#app/services/speech/long-audio.server.ts";
import type { OrgModelCache } from "#app/services/speech/org-vocab/model-cache.server.ts";
import { createPocketsphinxParser } from "#app/services/speech/pocketsphinx-output.ts";
import { lastLine, runProcess } from "#app/services/speech/process.server.ts";
import { readWavInfo, type WavInfo } from "#app/services/speech/wav.server.ts";
import { MAX_CUT_SLACK_SEC } from "#app/services/speech/windows.ts";

export const POCKETSPHINX_MODEL_DIR = "/usr/share/pocketsphinx/model/en-us";

/**
 * "stock": Debian's general English LM and cmudict (default: the better model on real and
 * conversational speech, docs/speech.md "Measured"); "clinical": the project's LM + dictionary,
 * better only on scripted dictation in its corpus's style; "conversation": clinical dialogue text
 * interpolated with the stock LM (scripts/build-conversation-lm.ts).
 */
export type PocketsphinxLanguageModel = "clinical" | "stock" | "conversation" | { lm: string; dict: string; name: string };

export interface PocketsphinxConfig {
  binary?: string;
  /** Acoustic model directory (Debian pocketsphinx-en-us). */
  hmm?: string;
  languageModel?: PocketsphinxLanguageModel;
  /** Decoder flags appended last (they override the tuned defaults below). */
  extraArgs?: readonly string[];
  /** Default: 30 s + 2 × the audio's duration (decoding runs at about 0.1–0.5 × real time here). */
  timeoutMs?: number;
  /** Concurrent decodes per engine instance; 1 keeps a core free for the web process on 2-core machines. */
  maxConcurrent?: number;
  /** Where organisations' adapted models are kept (ADR 0032); without it a vocabulary is ignored. */
  orgModels?: OrgModelCache;
}

/** A committed model folder, found beside this module in the source tree or from the working directory in a build. */
function committedModelDir(folder: string, probe: string): string {
  const candidates = [fileURLToPath(new URL(`./${folder}/`, import.meta.url)), resolve(`app/services/speech/${folder}`)];
  return candidates.find((dir) => existsSync(join(dir, probe))) ?? (candidates[1] as string);
}

export function clinicalModelDir(): string {
  return committedModelDir("clinical-lm", "clinical.dict");
}

export function conversationModelDir(): string {
  return committedModelDir("conversation-lm", "conversation.dict");
}

export function resolveLanguageModel(model: PocketsphinxLanguageModel = "conversation"): {
  lm: string;
  dict: string;
  name: string;
} {
  if (model === "stock") {
    return {
      lm: join(POCKETSPHINX_MODEL_DIR, "en-us.lm.bin"),
      dict: join(POCKETSPHINX_MODEL_DIR, "cmudict-en-us.dict"),
      name: "en-us-stock",
    };
  }
  if (model === "conversation") {
    const dir = conversationModelDir();
    return { lm: join(dir, "conversation.arpa.gz"), dict: join(dir, "conversation.dict"), name: "en-us-conversation" };
  }
  if (model === "clinical") {
    const dir = clinicalModelDir();
    return { lm: join(dir, "clinical.arpa"), dict: join(dir, "clinical.dict"), name: "en-us-clinical" };
  }
  return model;
}

export function createPocketsphinxEngine(config: PocketsphinxConfig = {}): SpeechEngine {
  const model = resolveLanguageModel(config.languageModel);
  const limit = createLimiter(config.maxConcurrent ?? 1);
  const hmm = config.hmm ?? join(POCKETSPHINX_MODEL_DIR, "en-us");
  const languages = ["en"] as const;

  async function decode(
    wavPath: string,
    info: WavInfo,
    options: TranscribeOptions,
    scratchDir: () => Promise<string>,
  ): Promise<TranscriptResult> {
    // Live cepstral mean normalisation needs ~20 s of speech to settle: a window that starts from the
    // model's default mean mishears its first phrases. Carry the previous window's final mean over.
    const carried = typeof options.carry?.[CMN_CARRY_KEY] === "string" ? (options.carry[CMN_CARRY_KEY] as string) : null;
    const featParams = carried ? await featParamsWithCmn(hmm, carried, scratchDir) : null;
    let lastCmn: string | null = null;
    const segments: TranscriptSegment[] = [];
    const parser = createPocketsphinxParser((segment) => {
      segments.push(segment);
      options.onSegment?.(segment);
    });
    // The organisation's adapted copy (built once per vocabulary version, then reused from disk).
    const active =
      options.vocabulary?.terms.length && config.orgModels ? await config.orgModels.modelFor(model, options.vocabulary) : model;
    const args = [
      // -remove_silence no: with its voice-activity detector on, this pocketsphinx (5prealpha) shifts
      // every time of the first utterance by ~8 s when a file starts mid-speech, as every window
      // but the first does; silence is then decoded as <sil> and segments are cut at pauses instead.
      ...["-infile", wavPath, "-time", "yes", "-remove_silence", "no"],
      ...["-hmm", hmm, "-lm", active.lm, "-dict", active.dict],
      ...(featParams ? ["-featparams", featParams] : []),
      // pocketsphinx's own -lw/-wip/-beam defaults: none of the values tried on the dev sentences did better (docs/speech.md).
      ...(config.extraArgs ?? []),
    ];
    const result = await runProcess(config.binary ?? "pocketsphinx_continuous", args, {
      timeoutMs: config.timeoutMs ?? 30_000 + Math.ceil(info.durationSec * 2000),
      signal: options.signal,
      onStdoutLine: parser.line,
      onStderrLine: (line) => {
        lastCmn = parseCmnUpdate(line) ?? lastCmn;
      },
      missingCode: "engine_unavailable",
      timeoutCode: "engine_timeout",
      failureCode: "engine_failed",
    });
    parser.end();
    if (options.carry && lastCmn) options.carry[CMN_CARRY_KEY] = lastCmn;
    if (result.exitCode !== 0) {
      throw new SpeechError("engine_failed", errorLine(result.stderr) || `pocketsphinx exited with ${result.exitCode}`);
    }
    return {
      text: segments.map((s) => s.text).join(" "),
      segments,
      engine: "pocketsphinx",
      model: active.name,
      language: "en",
    };
  }

  const engine: SpeechEngine = {
    id: "pocketsphinx",
    languages,
    model: model.name,
    // Each window is decoded as one utterance (see -remove_silence above): 30 s keeps the search
    // small; the 2 s overlap covers a word cut at an edge (windows.ts).
    window: { windowSec: 30, overlapSec: 2 },
    supports: (language) => baseLanguage(language) === "en",
    async transcribe(audio: EngineAudio, options: TranscribeOptions) {
      if (baseLanguage(options.language) !== "en") {
        throw new SpeechError("no_engine_for_language", `pocketsphinx has no model for "${options.language}"`);
      }
      let scratch: string | null = null;
      const scratchDir = async () => {
        scratch ??= await mkdtemp(join(tmpdir(), "murmur-ps-"));
        return scratch;
      };
      try {
        let path: string;
        if (typeof audio === "string") {
          path = audio;
        } else {
          path = join(await scratchDir(), "audio.wav");
          await writeFile(path, audio);
        }
        const info = await readWavInfo(path);
        if (info.sampleRate !== 16_000 || info.channels !== 1 || info.bitsPerSample !== 16) {
          throw new SpeechError(
            "audio_unreadable",
            `pocketsphinx needs 16 kHz mono 16-bit WAV, got ${info.sampleRate} Hz × ${info.channels} × ${info.bitsPerSample} bit`,
          );
        }
        // Longer audio goes through the window splitter, which calls back here once per window.
        // Windows cut at pauses run up to 2 × MAX_CUT_SLACK_SEC past windowSec; only longer audio is split here.
        if (info.durationSec > engine.window.windowSec + 2 * MAX_CUT_SLACK_SEC + 1)
          return await transcribeLongAudio(engine, path, options);
        const wav = path;
        return await limit(() => decode(wav, info, options, scratchDir), options.signal);
      } finally {
        if (scratch) await rm(scratch, { recursive: true, force: true });
      }
    },
  };
  return engine;
}

const CMN_CARRY_KEY = "pocketsphinx.cmn";

/** "INFO: cmn_live.c(105): Update to   < 63.92 11.14 … >" → "63.92,11.14,…" */
export function parseCmnUpdate(line: string): string | null {
  const match = /cmn_live\.c\(\d+\): Update to\s+<([^>]+)>/.exec(line);
  if (!match?.[1]) return null;
  const values = match[1].trim().split(/\s+/);
  return values.every((v) => Number.isFinite(Number(v))) ? values.join(",") : null;
}

/**
 * The acoustic model's feat.params with another initial cepstral mean. A -cmninit flag alone does
 * not work: this pocketsphinx lets the model's feat.params override the command line.
 */
async function featParamsWithCmn(hmm: string, cmn: string, scratchDir: () => Promise<string>): Promise<string> {
  const original = await readFile(join(hmm, "feat.params"), "utf8");
  const lines = original.split("\n").filter((l) => !l.startsWith("-cmninit"));
  const path = join(await scratchDir(), "feat.params");
  await writeFile(path, `${[...lines.filter(Boolean), `-cmninit ${cmn}`].join("\n")}\n`);
  return path;
}

/** pocketsphinx logs INFO lines to stderr; the reason for a failure is its last ERROR/FATAL line. */
function errorLine(stderr: string): string {
  const lines = stderr.split("\n").filter((l) => /^(ERROR|FATAL)/.test(l));
  return lines.length > 0 ? (lines.at(-1) ?? "").slice(0, 300) : lastLine(stderr);
}
