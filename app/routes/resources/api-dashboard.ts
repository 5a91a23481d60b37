import { dashboardJson } from "#app/services/dashboard/api-shape.ts";
import { loadDashboardData } from "#app/services/dashboard/dashboard.server.ts";
import { DashboardRangeQuerySchema } from "#app/services/dashboard/schema.ts";
import type { Route } from "./+types/api-dashboard";
import { handleApi, json, requireApiOrg } from "./org-api.server.ts";
import { readQuery } from "./visit-api.server.ts";

// GET /api/dashboard?from=YYYY-MM-DD&to=YYYY-MM-DD&clinician_id= (issue 16; docs/api.md "Dashboard"):
// the dashboard's figures for integrations, days in the organisation's time zone.
export function loader({ request, context }: Route.LoaderArgs) {
  return handleApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const query = readQuery(request, DashboardRangeQuerySchema);
    return json(dashboardJson(await loadDashboardData({ ...args, orgId: org.id, query })));
  });
}
