import { z } from "zod";
import { ORG_ROLES } from "#app/db/schema.ts";
import { removeMember, updateMemberRole } from "#app/services/orgs/members.server.ts";
import type { Route } from "./+types/api-org-member";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { currentOrgId, handleApi, json, noContent, readJson, serviceArgs } from "./org-api.server.ts";

export const MemberRoleSchema = z.strictObject({ role: z.enum(ORG_ROLES) });

export const loader = () => methodNotAllowed("PATCH, DELETE");

// PATCH { role } changes a member's role; DELETE removes a member, or leaves when it is the caller's own id.
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "PATCH" && request.method !== "DELETE") return methodNotAllowed("PATCH, DELETE");
  return handleApi(async () => {
    const args = await serviceArgs(request, context);
    const orgId = currentOrgId(request, params.id) ?? "";
    if (request.method === "DELETE") {
      await removeMember({ ...args, orgId, userId: params.userId });
      return noContent();
    }
    const { role } = await readJson(request, MemberRoleSchema);
    return json(await updateMemberRole({ ...args, orgId, userId: params.userId, role }));
  });
}
