import { z } from "zod";

const emptyAsUndefined = (v: unknown) => (v === "" ? undefined : v);

/**
 * Optional dense retrieval (issue 12, ADR 0020): an OpenAI-compatible /v1/embeddings server. A plain
 * shape spread into app/utils/env.server.ts so a bad value stops the server at boot. Without
 * EMBEDDINGS_BASE_URL and EMBEDDINGS_MODEL, Ask Murmur ranks on full text alone.
 */
export const EmbeddingsEnvShape = {
  /** Version included, as the OpenAI SDKs take it: https://api.openai.com/v1, http://localhost:11434/v1. */
  EMBEDDINGS_BASE_URL: z.preprocess(
    emptyAsUndefined,
    z.url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://api.openai.com/v1" }).optional(),
  ),
  EMBEDDINGS_API_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
  EMBEDDINGS_MODEL: z.preprocess(emptyAsUndefined, z.string().trim().min(1).max(200).optional()),
  /** Asked of the server (OpenAI's `dimensions`) and checked on every vector it returns. */
  EMBEDDINGS_DIMENSIONS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number({ error: "must be a whole number" }).int().min(1).max(4096, "must be at most 4096").optional(),
  ),
  /** Per HTTP call; a question's embedding that takes longer is skipped (full text answers alone). */
  EMBEDDINGS_TIMEOUT_MS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number({ error: "must be a number of milliseconds" }).int().min(100).max(600_000).default(10_000),
  ),
};

export interface EmbeddingsEnv {
  EMBEDDINGS_BASE_URL?: string | undefined;
  EMBEDDINGS_API_KEY?: string | undefined;
  EMBEDDINGS_MODEL?: string | undefined;
  EMBEDDINGS_DIMENSIONS?: number | undefined;
  EMBEDDINGS_TIMEOUT_MS: number;
}

/** Half a configuration is a mistake, not "off": say so at boot. */
export function checkEmbeddingsEnv(env: EmbeddingsEnv, ctx: z.RefinementCtx): void {
  const set = [env.EMBEDDINGS_BASE_URL, env.EMBEDDINGS_MODEL].filter(Boolean).length;
  if (set === 1 || (set === 0 && (env.EMBEDDINGS_API_KEY || env.EMBEDDINGS_DIMENSIONS))) {
    ctx.addIssue({
      code: "custom",
      path: [env.EMBEDDINGS_BASE_URL ? "EMBEDDINGS_MODEL" : "EMBEDDINGS_BASE_URL"],
      message: "dense retrieval needs both EMBEDDINGS_BASE_URL and EMBEDDINGS_MODEL (or neither)",
    });
  }
}
