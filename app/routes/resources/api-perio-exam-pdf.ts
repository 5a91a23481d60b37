import { z } from "zod";
import { LOCALES } from "#app/i18n/config.ts";
import { perioPdf } from "#app/services/perio/pdf.server.ts";
import { fileResponseHeaders } from "#app/utils/file-response.ts";
import type { Route } from "./+types/api-perio-exam-pdf";
import { requireApiOrg } from "./org-api.server.ts";
import { withOrgFromQuery } from "./org-query.server.ts";
import { handleVisitApi, readQuery } from "./visit-api.server.ts";

export { action } from "./method-not-allowed.ts";

const PdfQuerySchema = z.object({
  copy: z.enum(["clinic", "patient"]).default("clinic"),
  lang: z.enum(LOCALES).default("en"),
  numbering: z.enum(["universal", "fdi"]).default("universal"),
  org_id: z.string().optional(),
});

// GET /api/perio-exams/:id/pdf?copy=clinic|patient&lang=&numbering=[&org_id=] → application/pdf (attachment).
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(withOrgFromQuery(request), context);
    const q = readQuery(request, PdfQuerySchema);
    const { filename, bytes } = await perioPdf({
      ...args,
      orgId: org.id,
      examId: params.id,
      copy: q.copy,
      lang: q.lang,
      numbering: q.numbering,
    });
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
