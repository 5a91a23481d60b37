import { rerunTranscription } from "#app/services/visits/rerun.server.ts";
import type { Route } from "./+types/api-visit-transcribe";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, requireApiOrg } from "./org-api.server.ts";
import { handleVisitApi } from "./visit-api.server.ts";

export const loader = () => methodNotAllowed("POST");

// POST /api/visits/:id/transcribe → 202 { id, status: "uploaded", round }: transcribe again, as a new version.
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    return json(await rerunTranscription({ ...args, orgId: org.id, visitId: params.id }), 202);
  });
}
