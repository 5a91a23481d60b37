import type { Env } from "#app/utils/env.server.ts";
import { createExtractiveAnswerer } from "./extractive.ts";
import { createOpenAiCompatibleAnswerer } from "./openai-compatible.server.ts";
import type { AnswerEngine } from "./types.ts";

/** RAG_ENGINE picks the answerer; the OpenAI-compatible one shares the notes' LLM_OPENAI_* settings. */
export function createAnswerEngine(
  env: Pick<Env, "RAG_ENGINE" | "LLM_OPENAI_BASE_URL" | "LLM_OPENAI_API_KEY" | "LLM_OPENAI_MODEL" | "LLM_OPENAI_TIMEOUT_MS">,
): AnswerEngine {
  if (env.RAG_ENGINE !== "openai-compatible" || !env.LLM_OPENAI_BASE_URL || !env.LLM_OPENAI_MODEL) {
    return createExtractiveAnswerer();
  }
  return createOpenAiCompatibleAnswerer({
    baseUrl: env.LLM_OPENAI_BASE_URL,
    apiKey: env.LLM_OPENAI_API_KEY,
    model: env.LLM_OPENAI_MODEL,
    timeoutMs: env.LLM_OPENAI_TIMEOUT_MS,
  });
}
