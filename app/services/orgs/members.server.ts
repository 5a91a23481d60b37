import { sql } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { OrgRole } from "#app/db/schema.ts";
import { isUuid } from "#app/services/auth/uuid.server.ts";
import { recordAudit } from "./audit.server.ts";
import {
  asActor,
  canGrantRole,
  checkOrgId,
  MANAGER_ROLES,
  type OrgServiceArgs,
  requireMemberRole,
  requireRole,
} from "./context.server.ts";
import { orgErrors } from "./errors.server.ts";

export interface Member {
  user_id: string;
  email: string | null;
  full_name: string | null;
  role: OrgRole;
  joined_at: string;
}

/** GET /api/orgs/:id/members: every member sees the list (docs/permissions.md). */
export function listMembers(args: OrgServiceArgs & { orgId: string }): Promise<Member[]> {
  checkOrgId(args.orgId);
  return asActor(args, args.orgId, async (trx) => {
    await requireMemberRole(trx, args.orgId, args.actor.userId);
    const { rows } = await sql<Omit<Member, "joined_at"> & { joined_at: Date | string }>`
      select user_id, email, full_name, role, joined_at from public.org_member_directory(${args.orgId})`.execute(trx);
    return rows.map((r) => ({ ...r, joined_at: new Date(r.joined_at).toISOString() }));
  });
}

async function targetRole(trx: ActorTransaction, orgId: string, userId: string): Promise<OrgRole> {
  if (!isUuid(userId)) throw orgErrors.memberNotFound();
  const row = await trx
    .selectFrom("org_members")
    .select("role")
    .where("org_id", "=", orgId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) throw orgErrors.memberNotFound();
  return row.role;
}

/**
 * PATCH /api/orgs/:id/members/:userId. Owners change any role; admins change non-owners to
 * non-owner roles; the last owner cannot be demoted (409 last_owner, from the database trigger).
 */
export function updateMemberRole(
  args: OrgServiceArgs & { orgId: string; userId: string; role: OrgRole },
): Promise<{ user_id: string; role: OrgRole }> {
  checkOrgId(args.orgId);
  return asActor(args, args.orgId, async (trx) => {
    const actorRole = await requireMemberRole(trx, args.orgId, args.actor.userId);
    requireRole(actorRole, MANAGER_ROLES);
    const current = await targetRole(trx, args.orgId, args.userId);
    if (!canGrantRole(actorRole, current) || !canGrantRole(actorRole, args.role)) throw orgErrors.forbiddenRole();
    if (current === args.role) return { user_id: args.userId, role: current };
    // Audited first: the actor may be demoting themselves out of the roles allowed to write it afterwards.
    await recordAudit(trx, {
      orgId: args.orgId,
      actorId: args.actor.userId,
      action: "member.role_changed",
      entity: "member",
      entityId: args.userId,
      details: { from: current, to: args.role },
      meta: args.meta,
    });
    await trx
      .updateTable("org_members")
      .set({ role: args.role })
      .where("org_id", "=", args.orgId)
      .where("user_id", "=", args.userId)
      .execute();
    return { user_id: args.userId, role: args.role };
  });
}

/**
 * DELETE /api/orgs/:id/members/:userId. Any member may leave (their own id); owners remove anyone,
 * admins remove non-owners; the last owner can neither leave nor be removed (409 last_owner).
 */
export function removeMember(args: OrgServiceArgs & { orgId: string; userId: string }): Promise<void> {
  checkOrgId(args.orgId);
  return asActor(args, args.orgId, async (trx) => {
    const actorRole = await requireMemberRole(trx, args.orgId, args.actor.userId);
    const leaving = args.userId === args.actor.userId;
    if (!leaving) requireRole(actorRole, MANAGER_ROLES);
    const current = await targetRole(trx, args.orgId, args.userId);
    if (!leaving && !canGrantRole(actorRole, current)) throw orgErrors.forbiddenRole();
    // Audited before the delete: once they have left, the actor may no longer write to this organisation's log.
    await recordAudit(trx, {
      orgId: args.orgId,
      actorId: args.actor.userId,
      action: leaving ? "member.left" : "member.removed",
      entity: "member",
      entityId: args.userId,
      details: { role: current },
      meta: args.meta,
    });
    await trx.deleteFrom("org_members").where("org_id", "=", args.orgId).where("user_id", "=", args.userId).execute();
  });
}
