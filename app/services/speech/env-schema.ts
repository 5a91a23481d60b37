import { z } from "zod";

const emptyAsUndefined = (v: unknown) => (v === "" ? undefined : v);
const list = (v: string) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * The speech settings a deployment can set (docs/speech.md "Configuration"), as a plain shape so
 * app/utils/env.server.ts spreads it into the boot-time schema (a bad ASR_* value stops the server
 * at start) and config.server.ts parses the same rules for scripts and tests. No engine code is
 * imported here: the env module must stay cheap to load. An empty value means the default, as a
 * copied .env.example leaves them.
 */
export const SpeechEnvShape = {
  /** Engines in order of preference, comma-separated: "pocketsphinx", "openai-compatible". */
  ASR_ENGINE: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .default("pocketsphinx")
      .transform(list)
      .pipe(
        z
          .array(z.enum(["pocketsphinx", "openai-compatible"], { error: "must list pocketsphinx and/or openai-compatible" }))
          .min(1, "must name at least one engine"),
      ),
  ),
  ASR_OPENAI_BASE_URL: z.preprocess(
    emptyAsUndefined,
    z.url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://api.openai.com" }).optional(),
  ),
  ASR_OPENAI_API_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
  ASR_OPENAI_MODEL: z.preprocess(emptyAsUndefined, z.string().default("whisper-1")),
  ASR_OPENAI_LANGUAGES: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .default("en,fr,es")
      .transform((v) => list(v).map((s) => s.toLowerCase()))
      .pipe(z.array(z.string().regex(/^[a-z]{2,3}$/, "must be language codes such as en,fr,es"))),
  ),
  ASR_OPENAI_TIMEOUT_MS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(1000, "must be at least 1000 (ms)").default(300_000),
  ),
  /**
   * "conversation" (default), "stock", "clinical", or "<lm path>:<dict path>". The default is the
   * model never worse than stock on any bench set and best on conversations (docs/speech.md "Measured", bench/asr).
   */
  ASR_POCKETSPHINX_MODEL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .default("conversation")
      .refine((v) => v === "clinical" || v === "stock" || v === "conversation" || /^[^:]+:[^:]+$/.test(v), {
        message: "must be stock, conversation, clinical or <lm path>:<dict path>",
      }),
  ),
};

/** Rules across ASR_* variables; env.server.ts applies them at boot too. */
export function checkSpeechEnv(
  env: { ASR_ENGINE: readonly string[]; ASR_OPENAI_BASE_URL?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (env.ASR_ENGINE.includes("openai-compatible") && !env.ASR_OPENAI_BASE_URL) {
    ctx.addIssue({
      code: "custom",
      path: ["ASR_OPENAI_BASE_URL"],
      message: "ASR_ENGINE names openai-compatible but ASR_OPENAI_BASE_URL is not set",
    });
  }
}
