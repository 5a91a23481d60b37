import { z } from "zod";
import { ORG_ROLES } from "#app/db/schema.ts";
import { runtimeContext } from "#app/runtime/context.ts";
import { inviteByEmail } from "#app/services/orgs/invitation-delivery.server.ts";
import { listInvitations } from "#app/services/orgs/invitations.server.ts";
import type { Route } from "./+types/api-org-invitations";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { apiLocale, currentOrgId, handleApi, json, readJson, serviceArgs } from "./org-api.server.ts";

export const InvitationSchema = z.strictObject({
  email: z.string().trim().max(320).pipe(z.email()),
  role: z.enum(ORG_ROLES),
});

// GET /api/orgs/:id/invitations → the organisation's invitations with their status (owners and admins).
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleApi(async () => {
    const args = await serviceArgs(request, context);
    return json(await listInvitations({ ...args, orgId: currentOrgId(request, params.id) ?? "" }));
  });
}

// POST /api/orgs/:id/invitations { email, role } → 201 { id }, and the invitation email goes out in
// the Accept-Language language. The raw token is only in that email; the inviter never sees it.
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, HEAD, POST");
  return handleApi(async () => {
    const args = await serviceArgs(request, context);
    const orgId = currentOrgId(request, params.id) ?? "";
    const { email, role } = await readJson(request, InvitationSchema);
    const mail = { auth: context.get(runtimeContext).auth, locale: apiLocale(request) };
    const invitation = await inviteByEmail({ ...args, orgId, email, role, mail });
    return json({ id: invitation.id }, 201);
  });
}
