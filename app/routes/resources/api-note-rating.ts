import { RateNoteSchema } from "#app/services/notes/note-schemas.ts";
import { rateNote } from "#app/services/notes/notes.server.ts";
import type { Route } from "./+types/api-note-rating";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, requireApiOrg } from "./org-api.server.ts";
import { handleVisitApi, maxJsonBytes, readJsonLimited } from "./visit-api.server.ts";

export const loader = () => methodNotAllowed("POST");

// POST /api/notes/:id/rating { rating: 1–5, comment? } → { rating, rating_comment }.
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const body = await readJsonLimited(request, RateNoteSchema, maxJsonBytes(context));
    return json(await rateNote({ ...args, orgId: org.id, noteId: params.id, rating: body.rating, comment: body.comment }));
  });
}
