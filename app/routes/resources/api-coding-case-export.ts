import { z } from "zod";
import { exportCase } from "#app/services/coding/cases/export.server.ts";
import type { Route } from "./+types/api-coding-case-export";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { requireApiOrg } from "./org-api.server.ts";
import { handleVisitApi, readQuery } from "./visit-api.server.ts";

const ExportSchema = z.object({ format: z.enum(["csv", "fhir"]) });

// GET /api/coding/cases/:id/export?format=csv|fhir → the file (every role that reads cases; 409 case_not_coded).
export function loader({ request, context, params }: Route.LoaderArgs) {
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

export const action = () => methodNotAllowed("GET, HEAD");
