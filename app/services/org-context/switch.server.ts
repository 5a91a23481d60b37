import { checkOrgId, type OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { orgErrors } from "#app/services/orgs/errors.server.ts";
import type { Logger } from "#app/utils/logger.server.ts";
import type { MemberOrg } from "./current-org.ts";
import { loadMemberOrgs } from "./resolve.server.ts";

/**
 * The organisation a user asked to switch to, if they belong to it; otherwise 404 org_not_found —
 * the same answer for another tenant's id, a malformed id and an organisation they have left.
 */
export async function switchableOrg(args: OrgServiceArgs, orgId: string, logger?: Logger): Promise<MemberOrg> {
  checkOrgId(orgId);
  const orgs = await loadMemberOrgs(args.db, args.actor.userId);
  const org = orgs.find((candidate) => candidate.id === orgId.toLowerCase());
  if (!org) {
    logger?.info({ userId: args.actor.userId }, "organisation switch refused: not a member");
    throw orgErrors.orgNotFound();
  }
  return org;
}
