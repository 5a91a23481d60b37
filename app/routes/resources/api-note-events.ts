import { noteEventStream } from "#app/services/notes/note-event-stream.server.ts";
import { openNoteProgress } from "#app/services/notes/note-events.server.ts";
import type { Route } from "./+types/api-note-events";
import { requireApiOrg } from "./org-api.server.ts";
import { withOrgFromQuery } from "./org-query.server.ts";
import { handleVisitApi } from "./visit-api.server.ts";

export { action } from "./method-not-allowed.ts";

// GET /api/notes/:id/events → text/event-stream: `status` events { status, progress, failure },
// `done` once the note is no longer generating (docs/api.md "Notes").
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(withOrgFromQuery(request), context);
    const progress = await openNoteProgress({ ...args, orgId: org.id, noteId: params.id });
    return new Response(noteEventStream({ ...progress, request }), {
      headers: {
        "Content-Type": "text/event-stream; charset=utf-8",
        // no-transform: the compression middleware would otherwise hold events back in its buffer.
        "Cache-Control": "no-store, no-transform",
        "X-Accel-Buffering": "no",
      },
    });
  });
}
