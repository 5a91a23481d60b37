import { deleteVisit, getVisit } from "#app/services/visits/visits.server.ts";
import type { Route } from "./+types/api-visit";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, noContent, requireApiOrg } from "./org-api.server.ts";
import { handleVisitApi, storeOf } from "./visit-api.server.ts";

// GET /api/visits/:id → the visit with its patient, audio and newest transcript version.
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    return json(await getVisit({ ...args, orgId: org.id, visitId: params.id }));
  });
}

// DELETE /api/visits/:id → 204: the visit, its transcripts and its audio blobs (audited).
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed("GET, HEAD, DELETE");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    await deleteVisit({ ...args, orgId: org.id, visitId: params.id, store: storeOf(context) });
    return noContent();
  });
}
