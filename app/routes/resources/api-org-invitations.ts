import { z } from "zod";
import { ORG_ROLES } from "#app/db/schema.ts";
import { createInvitation } from "#app/services/orgs/invitations.server.ts";
import type { Route } from "./+types/api-org-invitations";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { currentOrgId, handleApi, json, readJson, serviceArgs } from "./org-api.server.ts";

export const InvitationSchema = z.strictObject({
  email: z.string().trim().max(320).pipe(z.email()),
  role: z.enum(ORG_ROLES),
});

export { loader } from "./method-not-allowed.ts";

// POST /api/orgs/:id/invitations { email, role } → 201 { id }. The raw token stays on the server side
// (createInvitation returns it for the invitation email); the inviter never sees it.
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleApi(async () => {
    const args = await serviceArgs(request, context);
    const orgId = currentOrgId(request, params.id) ?? "";
    const { email, role } = await readJson(request, InvitationSchema);
    const invitation = await createInvitation({ ...args, orgId, email, role });
    return json({ id: invitation.id }, 201);
  });
}
