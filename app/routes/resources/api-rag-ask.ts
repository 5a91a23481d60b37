import { ask } from "#app/services/rag/ask.server.ts";
import type { Route } from "./+types/api-rag-ask";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, requireApiOrg } from "./org-api.server.ts";
import { AskBodySchema, answerEngineOf, embeddingsOf, ragLanguage } from "./rag-api.server.ts";
import { handleVisitApi, maxJsonBytes, readJsonLimited } from "./visit-api.server.ts";

export const loader = () => methodNotAllowed("POST");

// POST /api/rag/ask { query, filters?, patientId?, scope? } → { answer, citations, usedFallback, support, scope }.
export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const body = await readJsonLimited(request, AskBodySchema, maxJsonBytes(context));
    const answer = await ask({
      ...args,
      orgId: org.id,
      query: body.query,
      filters: body.filters,
      patientId: body.patientId ?? null,
      scope: body.scope ?? null,
      language: ragLanguage(request),
      engine: answerEngineOf(context),
      embeddings: embeddingsOf(context),
      signal: request.signal,
    });
    return json(answer);
  });
}
