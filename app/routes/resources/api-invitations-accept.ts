import { z } from "zod";
import { acceptInvitation } from "#app/services/orgs/invitations.server.ts";
import type { Route } from "./+types/api-invitations-accept";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { handleApi, json, readJson, serviceArgs } from "./org-api.server.ts";

export const AcceptInvitationSchema = z.strictObject({ token: z.string().min(16).max(256) });

export { loader } from "./method-not-allowed.ts";

// POST /api/invitations/accept { token } → { org_id, role }: the signed-in user whose email the
// invitation was sent to joins the organisation.
export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleApi(async () => {
    const args = await serviceArgs(request, context);
    const { token } = await readJson(request, AcceptInvitationSchema);
    return json(await acceptInvitation({ ...args, token }));
  });
}
