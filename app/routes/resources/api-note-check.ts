import { acknowledgeCheck } from "#app/services/notes/checks/acknowledge.server.ts";
import { CheckActionSchema } from "#app/services/notes/note-schemas.ts";
import type { Route } from "./+types/api-note-check";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, requireApiOrg } from "./org-api.server.ts";
import { handleVisitApi, maxJsonBytes, readJsonLimited } from "./visit-api.server.ts";

export const loader = () => methodNotAllowed("POST");

// POST /api/notes/:id/checks/:checkId { action: "acknowledge", reason? } → the check (issue 27; audited).
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const body = await readJsonLimited(request, CheckActionSchema, maxJsonBytes(context));
    return json(
      await acknowledgeCheck({ ...args, orgId: org.id, noteId: params.id, checkId: params.checkId, reason: body.reason }),
    );
  });
}
