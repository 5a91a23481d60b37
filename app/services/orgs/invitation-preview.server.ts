import { sql } from "kysely";
import { withActor } from "#app/db/actor.server.ts";
import type { Database } from "#app/db/database.server.ts";
import type { OrgRole } from "#app/db/schema.ts";
import { hashToken } from "#app/services/auth/crypto.server.ts";

/** invitation_preview()'s states, in accept_invitation()'s order of checks. */
export const INVITATION_STATES = ["pending", "expired", "revoked", "used"] as const;
export type InvitationState = (typeof INVITATION_STATES)[number];

export interface InvitationPreview {
  orgName: string;
  /** The organisation's time zone (IANA): the expiry reads on its clock, as in Settings → Invitations. */
  orgTimezone: string;
  inviterName: string | null;
  inviterEmail: string | null;
  /** The address the invitation was sent to. */
  email: string;
  role: OrgRole;
  state: InvitationState;
  /** ISO time. */
  expiresAt: string;
}

/** randomToken(32) is 43 base64url characters; accept a little room, refuse anything else unread. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,256}$/;

export function isWellFormedInvitationToken(token: unknown): token is string {
  return typeof token === "string" && TOKEN_PATTERN.test(token);
}

/**
 * What the holder of an invitation token may see about it (organisation, inviter, role, state),
 * or null for a malformed or unknown token. Runs as the visitor — signed in or not — through the
 * SECURITY DEFINER invitation_preview(), since row-level security hides invitations from
 * non-members (0005_invitation_preview.sql).
 */
export async function getInvitationPreview(args: {
  db: Database;
  viewerId: string | null;
  token: string;
}): Promise<InvitationPreview | null> {
  if (!isWellFormedInvitationToken(args.token)) return null;
  return withActor(args.db, { userId: args.viewerId, orgId: null }, async (trx) => {
    const { rows } = await sql<{
      org_name: string;
      org_timezone: string;
      inviter_name: string | null;
      inviter_email: string | null;
      email: string;
      role: OrgRole;
      state: InvitationState;
      expires_at: Date | string;
    }>`select org_name, org_timezone, inviter_name, inviter_email, email, role, state, expires_at
       from public.invitation_preview(${hashToken(args.token)})`.execute(trx);
    const row = rows[0];
    if (!row) return null;
    return {
      orgName: row.org_name,
      orgTimezone: row.org_timezone,
      inviterName: row.inviter_name,
      inviterEmail: row.inviter_email,
      email: row.email,
      role: row.role,
      state: row.state,
      expiresAt: new Date(row.expires_at).toISOString(),
    };
  });
}

/** Whether a signed-in user's auth email is the invited one (accept_invitation() compares the same way). */
export function isInvitedEmail(preview: Pick<InvitationPreview, "email">, userEmail: string | null | undefined): boolean {
  return !!userEmail && userEmail.trim().toLowerCase() === preview.email.trim().toLowerCase();
}
