import { loadQuality, qualityExport } from "#app/services/dashboard/quality-report.server.ts";
import { DashboardRangeQuerySchema } from "#app/services/dashboard/schema.ts";
import type { Route } from "./+types/api-dashboard-quality";
import { handleApi, requireApiOrg } from "./org-api.server.ts";
import { readQuery } from "./visit-api.server.ts";

// GET /api/dashboard/quality?from=&to=&clinician_id= (issue 16; docs/api.md "Dashboard"): the
// Quality tab's figures as PHI-free JSON (counts, rates, section keys, template ids).
export function loader({ request, context }: Route.LoaderArgs) {
  return handleApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const query = readQuery(request, DashboardRangeQuerySchema);
    const page = await loadQuality({ ...args, orgId: org.id, query });
    return new Response(JSON.stringify(qualityExport(page), null, 2), {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="murmur-quality-${page.range.from}-${page.range.to}.json"`,
        "Cache-Control": "no-store",
      },
    });
  });
}
