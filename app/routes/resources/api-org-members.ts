import { listMembers } from "#app/services/orgs/members.server.ts";
import type { Route } from "./+types/api-org-members";
import { currentOrgId, handleApi, json, serviceArgs } from "./org-api.server.ts";

export { action } from "./method-not-allowed.ts";

// GET /api/orgs/:id/members: every member reads the list; anyone else 404 org_not_found.
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleApi(async () => {
    const args = await serviceArgs(request, context);
    return json(await listMembers({ ...args, orgId: currentOrgId(request, params.id) ?? "" }));
  });
}
