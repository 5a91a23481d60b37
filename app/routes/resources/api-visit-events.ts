import { visitEventStream } from "#app/services/visits/event-stream.server.ts";
import { openVisitProgress } from "#app/services/visits/visit-events.server.ts";
import type { Route } from "./+types/api-visit-events";
import { requireApiOrg } from "./org-api.server.ts";
import { withOrgFromQuery } from "./org-query.server.ts";
import { handleVisitApi } from "./visit-api.server.ts";

export { action } from "./method-not-allowed.ts";

// GET /api/visits/:id/events → text/event-stream: `status` events { status, progress, failure }
// on every change, `done` when transcribed or failed (docs/api.md "Patients and visits").
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(withOrgFromQuery(request), context);
    const progress = await openVisitProgress({ ...args, orgId: org.id, visitId: params.id });
    return new Response(visitEventStream({ ...progress, request }), {
      headers: {
        "Content-Type": "text/event-stream; charset=utf-8",
        // no-transform: the compression middleware would otherwise hold events back in its buffer.
        "Cache-Control": "no-store, no-transform",
        "X-Accel-Buffering": "no",
      },
    });
  });
}
