import { notePdf } from "#app/services/notes/pdf/note-pdf.server.ts";
import type { Route } from "./+types/api-note-pdf";
import { requireApiOrg } from "./org-api.server.ts";
import { withOrgFromQuery } from "./org-query.server.ts";
import { handleVisitApi } from "./visit-api.server.ts";

export { action } from "./method-not-allowed.ts";

// GET /api/notes/:id/pdf[?org_id=] → application/pdf: the note in its language, with its signature
// and content hash once signed (a link can carry the organisation, as the audio's does).
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(withOrgFromQuery(request), context);
    const { filename, bytes } = await notePdf({ ...args, orgId: org.id, noteId: params.id });
    return new Response(bytes, {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Disposition": `inline; filename="${filename}"`,
        "Cache-Control": "no-store",
      },
    });
  });
}
