import { z } from "zod";
import { getSource } from "#app/services/rag/source.server.ts";
import type { Route } from "./+types/api-rag-source";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, requireApiOrg } from "./org-api.server.ts";
import { handleVisitApi, readQuery } from "./visit-api.server.ts";

const SourceQuerySchema = z.object({ id: z.string().min(1).max(100) });

// GET /api/rag/source?id= → { id, title, content, created_at, metadata }; 404 source_not_found for
// another organisation's id or one the caller's role may not read.
export function loader({ request, context }: Route.LoaderArgs) {
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const { id } = readQuery(request, SourceQuerySchema);
    return json(await getSource({ ...args, orgId: org.id, id }));
  });
}

export const action = () => methodNotAllowed("GET, HEAD");
