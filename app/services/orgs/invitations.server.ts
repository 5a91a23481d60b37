import { sql } from "kysely";
import type { OrgRole } from "#app/db/schema.ts";
import { hashToken, randomToken } from "#app/services/auth/crypto.server.ts";
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

export interface CreatedInvitation {
  id: string;
  /**
   * The raw token, returned once so the caller can put `/accept-invite?token=…` in the invitation
   * email; only its SHA-256 is stored. The API route does not echo it to the inviter.
   */
  token: string;
  expires_at: string;
}

/**
 * POST /api/orgs/:id/invitations. Owners invite with any role; admins with any role but owner
 * (no escalation past their own rank). Expires after 7 days (the column default).
 */
export function createInvitation(
  args: OrgServiceArgs & { orgId: string; email: string; role: OrgRole },
): Promise<CreatedInvitation> {
  checkOrgId(args.orgId);
  return asActor(args, args.orgId, async (trx) => {
    const actorRole = await requireMemberRole(trx, args.orgId, args.actor.userId);
    requireRole(actorRole, MANAGER_ROLES);
    if (!canGrantRole(actorRole, args.role)) throw orgErrors.forbiddenRole("Only an owner can invite an owner");
    const token = randomToken(32);
    const email = args.email.trim();
    const row = await trx
      .insertInto("invitations")
      .values({ org_id: args.orgId, email, role: args.role, token_hash: hashToken(token), invited_by: args.actor.userId })
      .returning(["id", "expires_at"])
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      orgId: args.orgId,
      actorId: args.actor.userId,
      action: "invitation.created",
      entity: "invitation",
      entityId: row.id,
      details: { email, role: args.role },
      meta: args.meta,
    });
    return { id: row.id, token, expires_at: new Date(row.expires_at).toISOString() };
  });
}

/**
 * DELETE /api/orgs/:id/invitations/:invId. Owners revoke any invitation, admins all but owner
 * invitations. Revoking twice is a no-op; an accepted invitation cannot be revoked (409 invitation_used).
 */
export function revokeInvitation(args: OrgServiceArgs & { orgId: string; invitationId: string }): Promise<void> {
  checkOrgId(args.orgId);
  return asActor(args, args.orgId, async (trx) => {
    const actorRole = await requireMemberRole(trx, args.orgId, args.actor.userId);
    requireRole(actorRole, MANAGER_ROLES);
    if (!isUuid(args.invitationId)) throw orgErrors.invitationNotFound();
    const invitation = await trx
      .selectFrom("invitations")
      .select(["id", "role", "email", "accepted_at", "revoked_at"])
      .where("org_id", "=", args.orgId)
      .where("id", "=", args.invitationId)
      .executeTakeFirst();
    if (!invitation) throw orgErrors.invitationNotFound();
    if (!canGrantRole(actorRole, invitation.role)) throw orgErrors.forbiddenRole();
    if (invitation.accepted_at) throw orgErrors.invitationUsed();
    if (invitation.revoked_at) return;
    await trx
      .updateTable("invitations")
      .set({ revoked_at: new Date() })
      .where("org_id", "=", args.orgId)
      .where("id", "=", invitation.id)
      .execute();
    await recordAudit(trx, {
      orgId: args.orgId,
      actorId: args.actor.userId,
      action: "invitation.revoked",
      entity: "invitation",
      entityId: invitation.id,
      details: { email: invitation.email, role: invitation.role },
      meta: args.meta,
    });
  });
}

/**
 * POST /api/invitations/accept: the signed-in invitee joins with the invitation's role. The checks
 * (exists, not used, not revoked, not expired, the caller's email matches) run in accept_invitation(),
 * because row-level security hides the invitation from someone who is not a member yet.
 */
export function acceptInvitation(args: OrgServiceArgs & { token: string }): Promise<{ org_id: string; role: OrgRole }> {
  return asActor(args, null, async (trx) => {
    const { rows } = await sql<{ org_id: string; role: OrgRole }>`
      select org_id, role from public.accept_invitation(${hashToken(args.token)})`.execute(trx);
    const accepted = rows[0];
    if (!accepted) throw orgErrors.invitationInvalid();
    await recordAudit(trx, {
      orgId: accepted.org_id,
      actorId: args.actor.userId,
      action: "invitation.accepted",
      entity: "member",
      entityId: args.actor.userId,
      details: { role: accepted.role },
      meta: args.meta,
    });
    return accepted;
  });
}
