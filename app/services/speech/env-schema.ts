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
  /**
   * Engines in order of preference, comma-separated: "pocketsphinx", "openai-compatible", "whisper";
   * or "auto" (default): Whisper first when a model file is present (ASR_WHISPER_MODEL or
   * MURMUR_DATA_DIR/models/ggml-*.bin, verified), then pocketsphinx (ADR 0029).
   */
  ASR_ENGINE: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .default("auto")
      .transform(list)
      .pipe(
        z
          .array(
            z.enum(["auto", "pocketsphinx", "openai-compatible", "whisper"], {
              error: "must be auto or list pocketsphinx, openai-compatible and/or whisper",
            }),
          )
          .min(1, "must name at least one engine")
          .refine((ids) => !ids.includes("auto") || ids.length === 1, "auto cannot be combined with other engines"),
      ),
  ),
  /** A GGML model file for the whisper engine; default: the ggml-*.bin under MURMUR_DATA_DIR/models/. */
  ASR_WHISPER_MODEL: z.preprocess(emptyAsUndefined, z.string().optional()),
  /**
   * "1" accepts a model whose SHA-1 is not in the published list (the test suite's miniature
   * model, a developer's own conversion). Refused when NODE_ENV is production.
   */
  ASR_WHISPER_ALLOW_UNKNOWN: z.preprocess(
    emptyAsUndefined,
    z
      .enum(["0", "1", "true", "false"], { error: "must be 1 or 0" })
      .default("0")
      .transform((v) => v === "1" || v === "true"),
  ),
  /** whisper.cpp threads per decode; default all cores but one. */
  ASR_WHISPER_THREADS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1, "must be at least 1").optional()),
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

/** Rules across ASR_* variables; env.server.ts applies them at boot too (with NODE_ENV). */
export function checkSpeechEnv(
  env: {
    ASR_ENGINE: readonly string[];
    ASR_OPENAI_BASE_URL?: string | undefined;
    ASR_WHISPER_ALLOW_UNKNOWN?: boolean | undefined;
    NODE_ENV?: string | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  if (env.ASR_ENGINE.includes("openai-compatible") && !env.ASR_OPENAI_BASE_URL) {
    ctx.addIssue({
      code: "custom",
      path: ["ASR_OPENAI_BASE_URL"],
      message: "ASR_ENGINE names openai-compatible but ASR_OPENAI_BASE_URL is not set",
    });
  }
  if (env.ASR_WHISPER_ALLOW_UNKNOWN && env.NODE_ENV === "production") {
    ctx.addIssue({
      code: "custom",
      path: ["ASR_WHISPER_ALLOW_UNKNOWN"],
      message: "unverified Whisper models are refused in production; use a published model (docs/speech.md)",
    });
  }
}
