import { z } from "zod";
import { CSV_FIGURES, dashboardCsv } from "#app/services/dashboard/csv.ts";
import { loadDashboardData } from "#app/services/dashboard/dashboard.server.ts";
import { DashboardRangeQuerySchema } from "#app/services/dashboard/schema.ts";
import type { Route } from "./+types/api-dashboard-export";
import { handleApi, requireApiOrg } from "./org-api.server.ts";
import { readQuery } from "./visit-api.server.ts";

const ExportQuerySchema = DashboardRangeQuerySchema.and(z.object({ figure: z.enum(CSV_FIGURES).default("series") }));

// GET /api/dashboard/export.csv?figure=series|per_clinician|summary&from=&to=&clinician_id= (issue 16;
// docs/api.md "Dashboard"): the page's "Download CSV" links, same query and roles as /api/dashboard.
export function loader({ request, context }: Route.LoaderArgs) {
  return handleApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const { figure, ...query } = readQuery(request, ExportQuerySchema);
    const data = await loadDashboardData({ ...args, orgId: org.id, query });
    const name = `murmur-${figure}-${data.range.from}-${data.range.to}.csv`;
    return new Response(dashboardCsv(data, figure), {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${name}"`,
        "Cache-Control": "no-store",
      },
    });
  });
}
