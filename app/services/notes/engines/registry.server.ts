import { runCpu } from "#app/services/cpu/pool.server.ts";
import { type NotesEnv, NotesEnvError } from "#app/services/notes/engines/env.ts";
import { EXTRACTIVE_ENGINE_ID } from "#app/services/notes/engines/extractive/index.ts";
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
  if (env.NOTES_ENGINE === "extractive") return pooledExtractiveEngine();
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

/**
 * The extractive engine on the process's worker threads (issue 25: a note from an 887,000-character
 * transcript held the event loop 9.3 s). The job's abort signal ends the task; progress is reported
 * once, when the draft is back (a thread cannot call the job's callback).
 */
function pooledExtractiveEngine(): NoteEngine {
  return {
    id: EXTRACTIVE_ENGINE_ID,
    generate: async ({ signal, onProgress, ...input }) => {
      const draft = await runCpu("extractiveDraft", input, signal ? { signal } : {});
      onProgress?.(1);
      return draft;
    },
  };
}
