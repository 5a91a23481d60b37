import type { RouterContextProvider } from "react-router";
import { z } from "zod";
import { runtimeContext } from "#app/runtime/context.ts";
import { createEmbeddingsClient, type EmbeddingsClient } from "#app/services/rag/embeddings/client.server.ts";
import { createAnswerEngine } from "#app/services/rag/engines/registry.server.ts";
import type { AnswerEngine } from "#app/services/rag/engines/types.ts";
import { apiLocale } from "./org-api.server.ts";

// The edge of Ask Murmur's API (docs/api.md "Ask Murmur"). The body's shape is checked loosely
// here (types only); the service owns the rules and their stable codes (query_empty,
// query_too_long, invalid_filters, patient_not_found), which the /records-qa page shares.

export const AskBodySchema = z.object({
  query: z.unknown(),
  filters: z.unknown().optional(),
  patientId: z.string().max(100).nullable().optional(),
  scope: z.enum(["records", "help"]).nullable().optional(),
});

export const SearchBodySchema = AskBodySchema.extend({
  debug: z.boolean().optional(),
  limit: z.number().int().min(1).max(50).optional(),
});

export function answerEngineOf(context: Readonly<RouterContextProvider>): AnswerEngine {
  return createAnswerEngine(context.get(runtimeContext).env);
}

/** Dense retrieval when EMBEDDINGS_* is configured, else null (full text alone). */
export function embeddingsOf(context: Readonly<RouterContextProvider>): EmbeddingsClient | null {
  return createEmbeddingsClient(context.get(runtimeContext).env);
}

/** The reader's language for the fixed sentences of an answer: the API has no URL prefix, so Accept-Language. */
export const ragLanguage = (request: Request) => apiLocale(request);
