import { SaveNoteSchema } from "#app/services/notes/note-schemas.ts";
import { getNote, saveDraft } from "#app/services/notes/notes.server.ts";
import type { Route } from "./+types/api-note";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, requireApiOrg } from "./org-api.server.ts";
import { handleVisitApi, maxJsonBytes, readJsonLimited } from "./visit-api.server.ts";

// GET /api/notes/:id → the note: sections with sentences and evidence, omissions, versions, hash.
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    return json(await getNote({ ...args, orgId: org.id, noteId: params.id }));
  });
}

// PUT /api/notes/:id { sections: [{ key, text }] } → the note: a draft edit (a new draft_edit version).
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "PUT") return methodNotAllowed("GET, HEAD, PUT");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const { sections } = await readJsonLimited(request, SaveNoteSchema, maxJsonBytes(context));
    return json(await saveDraft({ ...args, orgId: org.id, noteId: params.id, sections }));
  });
}
