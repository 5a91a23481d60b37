import { runtimeContext } from "#app/runtime/context.ts";
import { resendInvitationByEmail } from "#app/services/orgs/invitation-delivery.server.ts";
import type { Route } from "./+types/api-org-invitation-resend";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { apiLocale, currentOrgId, handleApi, json, serviceArgs } from "./org-api.server.ts";

export { loader } from "./method-not-allowed.ts";

// POST /api/orgs/:id/invitations/:invId/resend → { id, expires_at }: a new token (the previous
// link stops working), 7 more days, and the email again in the Accept-Language language.
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleApi(async () => {
    const args = await serviceArgs(request, context);
    const mail = { auth: context.get(runtimeContext).auth, locale: apiLocale(request) };
    const resent = await resendInvitationByEmail({
      ...args,
      orgId: currentOrgId(request, params.id) ?? "",
      invitationId: params.invId,
      mail,
    });
    return json({ id: resent.id, expires_at: resent.expires_at });
  });
}
