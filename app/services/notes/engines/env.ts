import { z } from "zod";

const emptyAsUndefined = (v: unknown) => (v === "" ? undefined : v);

export const NOTE_ENGINE_IDS = ["extractive", "openai-compatible"] as const;
export type NoteEngineId = (typeof NOTE_ENGINE_IDS)[number];

/**
 * The note-engine settings a deployment can set (docs/notes.md "Note engines"), as a plain shape so
 * app/utils/env.server.ts spreads it into the boot-time schema (a bad value stops the server at
 * start, not at the first note). No engine code is imported here: the env module must stay cheap.
 */
export const NotesEnvShape = {
  /** extractive: offline and deterministic (default); openai-compatible: any chat-completions server. */
  NOTES_ENGINE: z.preprocess(
    emptyAsUndefined,
    z.enum(NOTE_ENGINE_IDS, { error: "must be extractive or openai-compatible" }).default("extractive"),
  ),
  /** Version included, as the OpenAI SDKs take it: https://api.openai.com/v1, http://localhost:11434/v1. */
  LLM_OPENAI_BASE_URL: z.preprocess(
    emptyAsUndefined,
    z.url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://api.openai.com/v1" }).optional(),
  ),
  LLM_OPENAI_API_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
  LLM_OPENAI_MODEL: z.preprocess(emptyAsUndefined, z.string().trim().min(1).optional()),
  /** Per HTTP attempt, i.e. per note section. */
  LLM_OPENAI_TIMEOUT_MS: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: "must be a number of milliseconds" })
      .int()
      .min(1000, "must be at least 1000 (ms)")
      .max(600_000, "must be at most 600000 (ms)")
      .default(120_000),
  ),
  LLM_OPENAI_MAX_RETRIES: z.preprocess(
    emptyAsUndefined,
    z.coerce.number({ error: "must be a whole number" }).int().min(0).max(10, "must be at most 10").default(3),
  ),
};

/** Rules across NOTES_ENGINE and LLM_OPENAI_*; env.server.ts applies them at boot too. */
export function checkNotesEnv(
  env: { NOTES_ENGINE: NoteEngineId; LLM_OPENAI_BASE_URL?: string | undefined; LLM_OPENAI_MODEL?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (env.NOTES_ENGINE !== "openai-compatible") return;
  if (!env.LLM_OPENAI_BASE_URL) {
    ctx.addIssue({
      code: "custom",
      path: ["LLM_OPENAI_BASE_URL"],
      message:
        "NOTES_ENGINE=openai-compatible needs the server's base URL, e.g. https://api.openai.com/v1 or http://localhost:11434/v1",
    });
  }
  if (!env.LLM_OPENAI_MODEL) {
    ctx.addIssue({
      code: "custom",
      path: ["LLM_OPENAI_MODEL"],
      message: "NOTES_ENGINE=openai-compatible needs a model name, e.g. gpt-4o-mini or llama3.1:8b",
    });
  }
}

export const NotesEnvSchema = z.object(NotesEnvShape).superRefine(checkNotesEnv);

export type NotesEnv = z.infer<typeof NotesEnvSchema>;

/** A configuration that cannot work; thrown at boot. */
export class NotesEnvError extends Error {
  override name = "NotesEnvError";
}

/** Throws NotesEnvError listing every bad variable. */
export function parseNotesEnv(source: Record<string, unknown>): NotesEnv {
  const result = NotesEnvSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new NotesEnvError(`Invalid note engine configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}
