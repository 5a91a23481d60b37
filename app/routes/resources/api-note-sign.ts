import { signNote } from "#app/services/notes/sign.server.ts";
import type { Route } from "./+types/api-note-sign";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, requireApiOrg } from "./org-api.server.ts";
import { handleVisitApi } from "./visit-api.server.ts";

export const loader = () => methodNotAllowed("POST");

// POST /api/notes/:id/sign → the signed note (owners and clinicians; 409 note_already_signed).
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    return json(await signNote({ ...args, orgId: org.id, noteId: params.id }));
  });
}
