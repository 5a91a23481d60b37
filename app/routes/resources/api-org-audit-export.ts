import { z } from "zod";
import { parseAuditFilters } from "#app/routes/app/settings/audit-schemas.ts";
import { AUDIT_EXPORT_FORMATS, exportAuditLog } from "#app/services/orgs/audit-export.server.ts";
import { AppError } from "#app/utils/app-error.ts";
import type { Route } from "./+types/api-org-audit-export";
import { currentOrgId, handleApi, serviceArgs } from "./org-api.server.ts";

export { action } from "./method-not-allowed.ts";

const FormatSchema = z.enum(AUDIT_EXPORT_FORMATS);

// GET /api/orgs/:id/audit-log/export?format=csv|json[&actor=&action=&from=&to=|&day=] (issue 17;
// docs/api.md "Organisations"): owners only (403 forbidden_role), the audit tab's filters with days in
// the organisation's zone (400 invalid_audit_filter), streamed as an attachment.
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleApi(async () => {
    const args = await serviceArgs(request, context);
    const query = new URL(request.url).searchParams;
    const format = FormatSchema.safeParse(query.get("format") ?? "csv");
    if (!format.success) throw new AppError(400, "validation_failed", "format: must be csv or json");
    const filters = parseAuditFilters(query);
    if (!filters) throw new AppError(400, "invalid_audit_filter", "The audit log filters are not valid");
    const file = await exportAuditLog({
      ...args,
      orgId: currentOrgId(request, params.id) ?? "",
      format: format.data,
      filters: { actorId: filters.actor, action: filters.action, from: filters.from, to: filters.to },
    });
    return new Response(file.body, {
      headers: {
        "Content-Type": file.contentType,
        "Content-Disposition": `attachment; filename="${file.filename}"`,
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  });
}
