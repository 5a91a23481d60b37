import { z } from "zod";
import { exportCase } from "#app/services/coding/cases/export.server.ts";
import type { Route } from "./+types/api-coding-case-export";
import { methodNotAllowed } from "./method-not-allowed.ts";

export { loader } from "./method-not-allowed.ts";

import { requireApiOrg } from "./org-api.server.ts";
import { handleVisitApi, readQuery } from "./visit-api.server.ts";

const ExportSchema = z.object({ format: z.enum(["csv", "fhir"]) });

// POST /api/coding/cases/:id/export?format=csv|fhir → the file (every role that reads cases; 409 case_not_coded).
// A POST, not a GET: the first export moves the case to exported, and a link on another site
// could make a signed-in browser GET it (issue 25). Cross-site POSTs are refused (same-origin guard).
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const { format } = readQuery(request, ExportSchema);
    const file = await exportCase({ ...args, orgId: org.id, caseId: params.id, format });
    return new Response(file.body, {
      headers: {
        "Content-Type": file.contentType,
        "Content-Disposition": `attachment; filename="${file.filename}"`,
        "Cache-Control": "no-store",
      },
    });
  });
}
