import { join } from "node:path";
import { z } from "zod";
import { createEngineRegistry, type EngineRegistry, type SpeechEngine } from "#app/services/speech/engine.ts";
import { checkSpeechEnv, SpeechEnvShape } from "#app/services/speech/env-schema.ts";
import { createOpenAiCompatibleEngine } from "#app/services/speech/openai-compatible.server.ts";
import { createOrgModelCache } from "#app/services/speech/org-vocab/model-cache.server.ts";
import { createPocketsphinxEngine, type PocketsphinxLanguageModel } from "#app/services/speech/pocketsphinx.server.ts";

/** The ASR_* rules (env-schema.ts), parsed on their own for scripts, the bench and tests. */
export const SpeechEnvSchema = z.object(SpeechEnvShape).superRefine(checkSpeechEnv);

export type SpeechEnv = z.infer<typeof SpeechEnvSchema>;

export function parseSpeechEnv(source: Record<string, string | undefined>): SpeechEnv {
  return SpeechEnvSchema.parse(source);
}

function pocketsphinxModel(value: string): PocketsphinxLanguageModel {
  if (value === "clinical" || value === "stock" || value === "conversation") return value;
  const [lm, dict] = value.split(":");
  if (!lm || !dict)
    throw new Error(`ASR_POCKETSPHINX_MODEL must be stock, conversation, clinical or <lm>:<dict>, got "${value}"`);
  return { lm, dict, name: "custom" };
}

/** Builds the engines the configuration names, in its order of preference. */
export function createSpeechRegistry(env: SpeechEnv, options: { dataDir?: string } = {}): EngineRegistry {
  const engines: SpeechEngine[] = [];
  // Organisations' adapted models live with the rest of the deployment's data (ADR 0032).
  const orgModels = options.dataDir ? createOrgModelCache(join(options.dataDir, "speech", "org-models")) : undefined;
  for (const id of env.ASR_ENGINE) {
    if (id === "pocketsphinx") {
      engines.push(createPocketsphinxEngine({ languageModel: pocketsphinxModel(env.ASR_POCKETSPHINX_MODEL), orgModels }));
    } else if (env.ASR_OPENAI_BASE_URL) {
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
