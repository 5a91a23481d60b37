import { z } from "zod";
import { createEngineRegistry, type EngineRegistry, type SpeechEngine } from "#app/services/speech/engine.ts";
import { createOpenAiCompatibleEngine } from "#app/services/speech/openai-compatible.server.ts";
import { createPocketsphinxEngine, type PocketsphinxLanguageModel } from "#app/services/speech/pocketsphinx.server.ts";

const emptyAsUndefined = (v: unknown) => (v === "" ? undefined : v);

/**
 * The speech settings a deployment can set (docs/speech.md "Configuration"). Parsed from any record
 * so the app's env module can merge this schema into its own and tests can pass plain objects.
 */
export const SpeechEnvSchema = z
  .object({
    /** Engines in order of preference, comma-separated: "pocketsphinx", "openai-compatible". */
    ASR_ENGINE: z
      .string()
      .default("pocketsphinx")
      .transform((v) =>
        v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.enum(["pocketsphinx", "openai-compatible"])).min(1)),
    ASR_OPENAI_BASE_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
    ASR_OPENAI_API_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
    ASR_OPENAI_MODEL: z.string().default("whisper-1"),
    ASR_OPENAI_LANGUAGES: z
      .string()
      .default("en,fr,es")
      .transform((v) =>
        v
          .split(",")
          .map((s) => s.trim().toLowerCase())
          .filter(Boolean),
      ),
    ASR_OPENAI_TIMEOUT_MS: z.coerce.number().int().min(1000).default(300_000),
    /** "clinical" (default), "stock", or "<lm path>:<dict path>". */
    ASR_POCKETSPHINX_MODEL: z.string().default("clinical"),
  })
  .refine((env) => !env.ASR_ENGINE.includes("openai-compatible") || env.ASR_OPENAI_BASE_URL, {
    message: "ASR_ENGINE names openai-compatible but ASR_OPENAI_BASE_URL is not set",
    path: ["ASR_OPENAI_BASE_URL"],
  });

export type SpeechEnv = z.infer<typeof SpeechEnvSchema>;

export function parseSpeechEnv(source: Record<string, string | undefined>): SpeechEnv {
  return SpeechEnvSchema.parse(source);
}

function pocketsphinxModel(value: string): PocketsphinxLanguageModel {
  if (value === "clinical" || value === "stock") return value;
  const [lm, dict] = value.split(":");
  if (!lm || !dict) throw new Error(`ASR_POCKETSPHINX_MODEL must be clinical, stock or <lm>:<dict>, got "${value}"`);
  return { lm, dict, name: "custom" };
}

/** Builds the engines the configuration names, in its order of preference. */
export function createSpeechRegistry(env: SpeechEnv): EngineRegistry {
  const engines: SpeechEngine[] = [];
  for (const id of env.ASR_ENGINE) {
    if (id === "pocketsphinx") {
      engines.push(createPocketsphinxEngine({ languageModel: pocketsphinxModel(env.ASR_POCKETSPHINX_MODEL) }));
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
