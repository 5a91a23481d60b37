import { sql } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { OrgRole } from "#app/db/schema.ts";
import { hashToken, randomToken } from "#app/services/auth/crypto.server.ts";
import { isUuid } from "#app/services/auth/uuid.server.ts";
import { canAddMember, PLAN_CATALOGUE } from "#app/services/billing/plans.ts";
import { type OrgAuditAction, recordAudit } from "./audit.server.ts";
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

/**
 * Not yet in OrgAuditAction (audit.server.ts belongs to another change of issue 4, which adds it);
 * the double cast goes away once the union lists it.
 */
const INVITATION_RESENT: OrgAuditAction = "invitation.resent";

/** How long an invitation (or a resent one) stays valid: issue 4 "expires_at = 7 days", as the column default. */
const INVITATION_LIFETIME = sql<Date>`now() + interval '7 days'`;

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
    await assertRoomForMember(trx, args.orgId);
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

/**
 * POST /api/orgs/:id/invitations/:invId/resend. Same rule as revoke (owners any, admins all but
 * owner invitations). A new token replaces the old one, so an earlier email's link stops working,
 * and the 7 days start again; an accepted invitation is 409 invitation_used, a revoked one 410
 * invitation_revoked. Returns the new raw token for the email only.
 */
export function resendInvitation(
  args: OrgServiceArgs & { orgId: string; invitationId: string },
): Promise<CreatedInvitation & { email: string }> {
  checkOrgId(args.orgId);
  return asActor(args, args.orgId, async (trx) => {
    const actorRole = await requireMemberRole(trx, args.orgId, args.actor.userId);
    requireRole(actorRole, MANAGER_ROLES);
    if (!isUuid(args.invitationId)) throw orgErrors.invitationNotFound();
    // Locked so a resend racing an accept either rotates before it (the accept then fails) or sees accepted_at.
    const invitation = await trx
      .selectFrom("invitations")
      .select(["id", "role", "email", "accepted_at", "revoked_at"])
      .where("org_id", "=", args.orgId)
      .where("id", "=", args.invitationId)
      .forUpdate()
      .executeTakeFirst();
    if (!invitation) throw orgErrors.invitationNotFound();
    if (!canGrantRole(actorRole, invitation.role)) throw orgErrors.forbiddenRole();
    if (invitation.accepted_at) throw orgErrors.invitationUsed();
    if (invitation.revoked_at) throw orgErrors.invitationRevoked();
    const token = randomToken(32);
    const row = await trx
      .updateTable("invitations")
      .set({ token_hash: hashToken(token), expires_at: INVITATION_LIFETIME })
      .where("org_id", "=", args.orgId)
      .where("id", "=", invitation.id)
      .returning(["expires_at"])
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      orgId: args.orgId,
      actorId: args.actor.userId,
      action: INVITATION_RESENT,
      entity: "invitation",
      entityId: invitation.id,
      details: { email: invitation.email, role: invitation.role },
      meta: args.meta,
    });
    return { id: invitation.id, token, email: invitation.email, expires_at: new Date(row.expires_at).toISOString() };
  });
}

export type InvitationStatus = "pending" | "expired" | "revoked" | "accepted";

export interface InvitationListItem {
  id: string;
  email: string;
  role: OrgRole;
  status: InvitationStatus;
  /** The inviter's user id; their email and name are null once they are no longer a member. */
  invited_by: string | null;
  inviter_email: string | null;
  inviter_name: string | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  revoked_at: string | null;
}

/** The most recent invitations a list shows; older ones stay in the database and the audit log. */
const INVITATION_LIST_LIMIT = 200;

/**
 * GET /api/orgs/:id/invitations and Settings → Invitations: owners and admins (the invitations_all
 * policy lets only them read), newest first. Inviters' names come from org_member_directory(),
 * since auth.users is not readable by murmur_app.
 */
export function listInvitations(args: OrgServiceArgs & { orgId: string }): Promise<InvitationListItem[]> {
  checkOrgId(args.orgId);
  return asActor(args, args.orgId, async (trx) => {
    const actorRole = await requireMemberRole(trx, args.orgId, args.actor.userId);
    requireRole(actorRole, MANAGER_ROLES);
    const rows = await trx
      .selectFrom("invitations")
      .select([
        "id",
        "email",
        "role",
        "invited_by",
        "created_at",
        "expires_at",
        "accepted_at",
        "revoked_at",
        sql<InvitationStatus>`case when accepted_at is not null then 'accepted'
                                   when revoked_at is not null then 'revoked'
                                   when expires_at <= now() then 'expired'
                                   else 'pending' end`.as("status"),
      ])
      .where("org_id", "=", args.orgId)
      .orderBy("created_at", "desc")
      .orderBy("id")
      .limit(INVITATION_LIST_LIMIT)
      .execute();
    const { rows: directory } = await sql<{ user_id: string; email: string | null; full_name: string | null }>`
      select user_id, email, full_name from public.org_member_directory(${args.orgId}::uuid)`.execute(trx);
    const people = new Map(directory.map((p) => [p.user_id, p]));
    const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);
    return rows.map((r) => {
      const inviter = r.invited_by ? people.get(r.invited_by) : undefined;
      return {
        id: r.id,
        email: r.email,
        role: r.role,
        status: r.status,
        invited_by: r.invited_by,
        inviter_email: inviter?.email ?? null,
        inviter_name: inviter?.full_name ?? null,
        created_at: new Date(r.created_at).toISOString(),
        expires_at: new Date(r.expires_at).toISOString(),
        accepted_at: iso(r.accepted_at),
        revoked_at: iso(r.revoked_at),
      };
    });
  });
}

/**
 * The plan's member limit (app/services/billing/plans.ts), counting pending invitations as seats:
 * otherwise a Solo practice could invite ten people and each acceptance would overrun it. The
 * organisation row is locked so two invitations sent at once cannot both take the last seat.
 */
async function assertRoomForMember(trx: ActorTransaction, orgId: string): Promise<void> {
  const org = await trx.selectFrom("organizations").select("plan").where("id", "=", orgId).forUpdate().executeTakeFirstOrThrow();
  const max = PLAN_CATALOGUE[org.plan].maxMembers;
  if (max === null) return;
  const members = await trx
    .selectFrom("org_members")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("org_id", "=", orgId)
    .executeTakeFirstOrThrow();
  const pending = await trx
    .selectFrom("invitations")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("org_id", "=", orgId)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", new Date())
    .executeTakeFirstOrThrow();
  if (!canAddMember(org.plan, Number(members.n) + Number(pending.n))) throw orgErrors.memberLimitReached(max);
}
