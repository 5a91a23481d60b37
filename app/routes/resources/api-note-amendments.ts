import { AmendNoteSchema } from "#app/services/notes/note-schemas.ts";
import { amendNote } from "#app/services/notes/sign.server.ts";
import type { Route } from "./+types/api-note-amendments";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, requireApiOrg } from "./org-api.server.ts";
import { handleVisitApi, maxJsonBytes, readJsonLimited } from "./visit-api.server.ts";

export const loader = () => methodNotAllowed("POST");

// POST /api/notes/:id/amendments { sections: [{ key, text }], reason } → 201 the amended note.
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const body = await readJsonLimited(request, AmendNoteSchema, maxJsonBytes(context));
    return json(
      await amendNote({ ...args, orgId: org.id, noteId: params.id, sections: body.sections, reason: body.reason }),
      201,
    );
  });
}
