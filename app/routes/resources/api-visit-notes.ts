import { CreateNoteSchema } from "#app/services/notes/note-schemas.ts";
import { createNote, listVisitNotes } from "#app/services/notes/notes.server.ts";
import type { Route } from "./+types/api-visit-notes";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, requireApiOrg } from "./org-api.server.ts";
import { handleVisitApi, maxJsonBytes, readJsonLimited } from "./visit-api.server.ts";

// GET /api/visits/:id/notes → the visit's notes, newest first (docs/api.md "Notes").
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    return json(await listVisitNotes({ ...args, orgId: org.id, visitId: params.id }));
  });
}

// POST /api/visits/:id/notes { template_id, language? } → 202 { id }: generation is queued.
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, HEAD, POST");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const body = await readJsonLimited(request, CreateNoteSchema, maxJsonBytes(context));
    const created = await createNote({
      ...args,
      orgId: org.id,
      visitId: params.id,
      templateId: body.template_id,
      language: body.language,
    });
    return json(created, 202);
  });
}
