import { type NotesEnv, NotesEnvError } from "#app/services/notes/engines/env.ts";
import { createExtractiveEngine } from "#app/services/notes/engines/extractive/index.ts";
import { createOpenAiCompatibleNoteEngine } from "#app/services/notes/engines/openai-compatible/engine.server.ts";
import type { NoteEngine } from "#app/services/notes/model.ts";

// The schema lives in env.ts, free of engine code, so app/utils/env.server.ts can merge it cheaply.
export {
  checkNotesEnv,
  NOTE_ENGINE_IDS,
  type NoteEngineId,
  type NotesEnv,
  NotesEnvError,
  NotesEnvSchema,
  NotesEnvShape,
  parseNotesEnv,
} from "#app/services/notes/engines/env.ts";

export function createNoteEngine(env: NotesEnv): NoteEngine {
  if (env.NOTES_ENGINE === "extractive") return createExtractiveEngine();
  if (!env.LLM_OPENAI_BASE_URL || !env.LLM_OPENAI_MODEL) {
    throw new NotesEnvError("NOTES_ENGINE=openai-compatible needs LLM_OPENAI_BASE_URL and LLM_OPENAI_MODEL");
  }
  return createOpenAiCompatibleNoteEngine({
    baseUrl: env.LLM_OPENAI_BASE_URL,
    apiKey: env.LLM_OPENAI_API_KEY,
    model: env.LLM_OPENAI_MODEL,
    timeoutMs: env.LLM_OPENAI_TIMEOUT_MS,
    maxRetries: env.LLM_OPENAI_MAX_RETRIES,
  });
}
