import { getEmbeddingStatus, startReembedding } from "#app/services/rag/embeddings/status.server.ts";
import type { Route } from "./+types/api-rag-embeddings";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, requireApiOrg } from "./org-api.server.ts";
import { embeddingsOf } from "./rag-api.server.ts";
import { handleVisitApi } from "./visit-api.server.ts";

// GET /api/rag/embeddings → the re-embedding's progress (owners; docs/api.md "Dense retrieval").
export function loader({ request, context }: Route.LoaderArgs) {
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    return json(await getEmbeddingStatus({ ...args, orgId: org.id, client: embeddingsOf(context) }));
  });
}

// POST /api/rag/embeddings → 202 with the status: the rag-embed job embeds what is missing.
export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    return json(await startReembedding({ ...args, orgId: org.id, client: embeddingsOf(context) }), 202);
  });
}
