import { runCpu } from "#app/services/cpu/pool.server.ts";
import { icd10cmTable } from "../codes/registry.server.ts";
import type { SuggestionEngine } from "../model.ts";
import { createOpenAiCodingEngine } from "./openai-compatible/engine.server.ts";

export interface CodingEngineEnv {
  CODING_ENGINE?: "embedded" | "openai-compatible";
  LLM_OPENAI_BASE_URL?: string | undefined;
  LLM_OPENAI_API_KEY?: string | undefined;
  LLM_OPENAI_MODEL?: string | undefined;
  LLM_OPENAI_TIMEOUT_MS?: number;
}

let cached: { key: string; engine: SuggestionEngine } | null = null;

/** The deployment's coding engine: embedded unless CODING_ENGINE=openai-compatible and a server is configured. */
export function codingEngine(env: CodingEngineEnv): SuggestionEngine {
  const key = `${env.CODING_ENGINE}|${env.LLM_OPENAI_BASE_URL}|${env.LLM_OPENAI_MODEL}`;
  if (cached?.key === key) return cached.engine;
  const engine =
    env.CODING_ENGINE === "openai-compatible" && env.LLM_OPENAI_BASE_URL && env.LLM_OPENAI_MODEL
      ? createOpenAiCodingEngine(
          {
            baseUrl: env.LLM_OPENAI_BASE_URL,
            apiKey: env.LLM_OPENAI_API_KEY,
            model: env.LLM_OPENAI_MODEL,
            timeoutMs: env.LLM_OPENAI_TIMEOUT_MS ?? 120_000,
          },
          icd10cmTable(),
        )
      : pooledEmbeddedEngine();
  cached = { key, engine };
  return engine;
}

/**
 * The embedded engine on the process's worker threads (issue 25: four parallel 100,000-character
 * texts stalled every other request 4.8 s). Same engine, same results; its indexes live in the
 * threads, so the web thread never builds them either.
 */
function pooledEmbeddedEngine(): SuggestionEngine {
  return { id: "embedded", suggest: (input, signal) => runCpu("codingSuggest", input, signal ? { signal } : {}) };
}
