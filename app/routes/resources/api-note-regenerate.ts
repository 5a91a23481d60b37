import { regenerateSection } from "#app/services/notes/notes.server.ts";
import type { Route } from "./+types/api-note-regenerate";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, requireApiOrg } from "./org-api.server.ts";
import { handleVisitApi } from "./visit-api.server.ts";

export const loader = () => methodNotAllowed("POST");

// POST /api/notes/:id/sections/:key/regenerate → 202 { id }: that section is generated again.
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    return json(await regenerateSection({ ...args, orgId: org.id, noteId: params.id, key: params.key }), 202);
  });
}
