import { runtimeContext } from "#app/runtime/context.ts";
import { openCaseForNote } from "#app/services/coding/cases/cases.server.ts";
import type { Route } from "./+types/api-note-coding";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, requireApiOrg } from "./org-api.server.ts";
import { handleVisitApi } from "./visit-api.server.ts";

export const loader = () => methodNotAllowed("POST");

// POST /api/notes/:id/coding → the visit's coding case { id, status, suggestions, lines, … } (owners and clinicians; 409 note_not_signed).
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    return json(await openCaseForNote({ ...args, orgId: org.id, noteId: params.id, env: context.get(runtimeContext).env }));
  });
}
