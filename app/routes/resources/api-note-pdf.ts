import { notePdf } from "#app/services/notes/pdf/note-pdf.server.ts";
import { fileResponseHeaders } from "#app/utils/file-response.ts";
import type { Route } from "./+types/api-note-pdf";
import { requireApiOrg } from "./org-api.server.ts";
import { withOrgFromQuery } from "./org-query.server.ts";
import { handleVisitApi } from "./visit-api.server.ts";

export { action } from "./method-not-allowed.ts";

// GET /api/notes/:id/pdf[?org_id=] → application/pdf (an attachment): the note in its language, with its signature
// and content hash once signed (a link can carry the organisation, as the audio's does).
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(withOrgFromQuery(request), context);
    const { filename, bytes } = await notePdf({ ...args, orgId: org.id, noteId: params.id });
    // A download: only audio is ever shown inline (file-response.ts).
    const headers = fileResponseHeaders({
      contentType: "application/pdf",
      disposition: "attachment",
      name: filename.replace(/\.pdf$/, ""),
      extension: "pdf",
    });
    headers.set("Content-Length", String(bytes.byteLength));
    return new Response(bytes, { headers });
  });
}
