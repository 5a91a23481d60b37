import { availableParallelism } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { createEngineRegistry, type EngineRegistry, type SpeechEngine } from "#app/services/speech/engine.ts";
import { checkSpeechEnv, SpeechEnvShape } from "#app/services/speech/env-schema.ts";
import { createOpenAiCompatibleEngine } from "#app/services/speech/openai-compatible.server.ts";
import { createOrgModelCache } from "#app/services/speech/org-vocab/model-cache.server.ts";
import { createPocketsphinxEngine, type PocketsphinxLanguageModel } from "#app/services/speech/pocketsphinx.server.ts";
import { createWhisperEngine } from "#app/services/speech/whisper.server.ts";
import { findWhisperModel } from "#app/services/speech/whisper-model.server.ts";

/** The ASR_* rules (env-schema.ts), parsed on their own for scripts, the bench and tests. */
export const SpeechEnvSchema = z.object(SpeechEnvShape).superRefine(checkSpeechEnv);

export type SpeechEnv = z.infer<typeof SpeechEnvSchema>;

export function parseSpeechEnv(source: Record<string, string | undefined>): SpeechEnv {
  const env = SpeechEnvSchema.parse(source);
  // The boot-time schema applies this rule with NODE_ENV; scripts and tests parse without it.
  if (env.ASR_WHISPER_ALLOW_UNKNOWN && source.NODE_ENV === "production") {
    throw new Error("ASR_WHISPER_ALLOW_UNKNOWN: unverified Whisper models are refused in production");
  }
  return env;
}

function pocketsphinxModel(value: string): PocketsphinxLanguageModel {
  if (value === "clinical" || value === "stock" || value === "conversation") return value;
  const [lm, dict] = value.split(":");
  if (!lm || !dict)
    throw new Error(`ASR_POCKETSPHINX_MODEL must be stock, conversation, clinical or <lm>:<dict>, got "${value}"`);
  return { lm, dict, name: "custom" };
}

export interface SpeechRegistryOptions {
  /** MURMUR_DATA_DIR: its models/ folder is where a practice puts a Whisper model. */
  dataDir?: string;
}

/**
 * The engine ids ASR_ENGINE resolves to. "auto" puts Whisper first when a model file is there
 * (its checksum is verified in the background; a refused file makes it step aside for
 * pocketsphinx, and the diagnostics page says why), pocketsphinx otherwise.
 */
export function resolveEngineIds(
  env: SpeechEnv,
  options: SpeechRegistryOptions = {},
): { ids: string[]; whisperModel: string | null } {
  const whisperModel = findWhisperModel({
    explicitPath: env.ASR_WHISPER_MODEL,
    dataDir: options.dataDir ?? process.env.MURMUR_DATA_DIR ?? "./data",
  });
  if (env.ASR_ENGINE.length === 1 && env.ASR_ENGINE[0] === "auto") {
    return { ids: whisperModel ? ["whisper", "pocketsphinx"] : ["pocketsphinx"], whisperModel };
  }
  return { ids: [...env.ASR_ENGINE], whisperModel };
}

/** Builds the engines the configuration names, in its order of preference. */
export function createSpeechRegistry(env: SpeechEnv, options: SpeechRegistryOptions = {}): EngineRegistry {
  const engines: SpeechEngine[] = [];
  const auto = env.ASR_ENGINE[0] === "auto";
  const { ids, whisperModel } = resolveEngineIds(env, options);
  // Organisations' adapted models live with the rest of the deployment's data (ADR 0032).
  const orgModels = options.dataDir ? createOrgModelCache(join(options.dataDir, "speech", "org-models")) : undefined;
  for (const id of ids) {
    if (id === "pocketsphinx") {
      engines.push(
        createPocketsphinxEngine({
          languageModel: pocketsphinxModel(env.ASR_POCKETSPHINX_MODEL),
          orgModels,
          // Issue 26: an upload's windows are decoded on every core (transcribe-file.server.ts).
          maxConcurrent: availableParallelism(),
        }),
      );
    } else if (id === "whisper") {
      engines.push(
        createWhisperEngine({
          // Named but absent: the engine reports model_missing on use and on the diagnostics page.
          modelPath: whisperModel ?? `${options.dataDir ?? process.env.MURMUR_DATA_DIR ?? "./data"}/models/ggml-base.en.bin`,
          allowUnknown: env.ASR_WHISPER_ALLOW_UNKNOWN,
          threads: env.ASR_WHISPER_THREADS,
          fallBackWhenUnusable: auto,
        }),
      );
    } else if (id === "openai-compatible" && env.ASR_OPENAI_BASE_URL) {
      engines.push(
        createOpenAiCompatibleEngine({
          baseUrl: env.ASR_OPENAI_BASE_URL,
          apiKey: env.ASR_OPENAI_API_KEY,
          model: env.ASR_OPENAI_MODEL,
          languages: env.ASR_OPENAI_LANGUAGES,
          timeoutMs: env.ASR_OPENAI_TIMEOUT_MS,
        }),
      );
    }
  }
  return createEngineRegistry(engines);
}
