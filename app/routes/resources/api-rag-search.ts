import { search } from "#app/services/rag/ask.server.ts";
import type { Route } from "./+types/api-rag-search";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, requireApiOrg } from "./org-api.server.ts";
import { embeddingsOf, ragLanguage, SearchBodySchema } from "./rag-api.server.ts";
import { handleVisitApi, maxJsonBytes, readJsonLimited } from "./visit-api.server.ts";

export const loader = () => methodNotAllowed("POST");

// POST /api/rag/search { query, patientId?, filters?, debug?, limit? } → the ask response without an
// answer; debug (owners only, else 403 forbidden_role) adds each citation's ranking features.
export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const body = await readJsonLimited(request, SearchBodySchema, maxJsonBytes(context));
    const result = await search({
      ...args,
      orgId: org.id,
      query: body.query,
      filters: body.filters,
      patientId: body.patientId ?? null,
      scope: body.scope ?? null,
      language: ragLanguage(request),
      debug: body.debug === true,
      limit: body.limit,
      embeddings: embeddingsOf(context),
      signal: request.signal,
    });
    return json(result);
  });
}
