import type { Route } from "./+types/api-orgs-current";
import { handleApi, json, requireApiOrg } from "./org-api.server.ts";

export { action } from "./method-not-allowed.ts";

// GET /api/orgs/current: the organisation named by `x-org-id` (or the session's cookie), with the
// caller's role and trial end — what a client checks before working in it (docs/api.md).
export function loader({ request, context }: Route.LoaderArgs) {
  return handleApi(async () => json((await requireApiOrg(request, context)).org));
}
