import { revokeInvitation } from "#app/services/orgs/invitations.server.ts";
import type { Route } from "./+types/api-org-invitation";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { currentOrgId, handleApi, noContent, serviceArgs } from "./org-api.server.ts";

export const loader = () => methodNotAllowed("DELETE");

// DELETE /api/orgs/:id/invitations/:invId → 204: revoke (idempotent; an accepted one is 409 invitation_used).
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed("DELETE");
  return handleApi(async () => {
    const args = await serviceArgs(request, context);
    await revokeInvitation({ ...args, orgId: currentOrgId(request, params.id) ?? "", invitationId: params.invId });
    return noContent();
  });
}
