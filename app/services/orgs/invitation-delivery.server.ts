import type { OrgRole } from "#app/db/schema.ts";
import type { Locale } from "#app/i18n/config.ts";
import type { AuthRuntime } from "#app/services/auth/auth-runtime.server.ts";
import type { OrgServiceArgs } from "./context.server.ts";
import { invitationLink, queueInvitationEmail, renderInvitationEmail } from "./invitation-email.server.ts";
import { countInvitationEmail, refundInvitationEmail } from "./invitation-limits.server.ts";
import { getInvitationPreview } from "./invitation-preview.server.ts";
import { createInvitation, resendInvitation } from "./invitations.server.ts";

/** Where and in which language an invitation email goes out. */
export interface InvitationMail {
  auth: AuthRuntime;
  /** The inviter's page language (Settings), or the API request's Accept-Language. */
  locale: Locale;
}

export interface SentInvitation {
  id: string;
  email: string;
  expires_at: string;
}

/**
 * Creates an invitation and emails its link. The raw token goes into the email only: it is
 * neither stored (just its hash) nor returned to the inviter.
 */
export async function inviteByEmail(
  args: OrgServiceArgs & { orgId: string; email: string; role: OrgRole; mail: InvitationMail },
): Promise<SentInvitation> {
  const { mail, ...rest } = args;
  const hits = await countInvitationEmail(mail.auth, {
    orgId: args.orgId,
    inviterId: args.actor.userId,
    recipient: { email: args.email.trim() },
    locale: mail.locale,
  });
  const created = await createInvitation(rest).catch(async (error: unknown) => {
    await refundInvitationEmail(mail.auth, hits);
    throw error;
  });
  const email = await emailInvitation(args, created.token, mail);
  return { id: created.id, email: email ?? args.email.trim(), expires_at: created.expires_at };
}

/** Rotates the invitation's token (within the invitation email limits: 429 invitation_rate_limited), restarts its 7 days and emails the new link. */
export async function resendInvitationByEmail(
  args: OrgServiceArgs & { orgId: string; invitationId: string; mail: InvitationMail },
): Promise<SentInvitation> {
  const { mail, ...rest } = args;
  const hits = await countInvitationEmail(mail.auth, {
    orgId: args.orgId,
    inviterId: args.actor.userId,
    recipient: { invitationId: args.invitationId },
    locale: mail.locale,
  });
  const resent = await resendInvitation(rest).catch(async (error: unknown) => {
    await refundInvitationEmail(mail.auth, hits);
    throw error;
  });
  await emailInvitation(args, resent.token, mail);
  return { id: resent.id, email: resent.email, expires_at: resent.expires_at };
}

/**
 * Queued after the invitation's transaction has committed (the outbox is written by the owner
 * connection): if queueing fails, the invitation exists and "resend" sends it again. The email
 * shows what the accept page will show, read through the same invitation_preview().
 */
async function emailInvitation(args: OrgServiceArgs, token: string, mail: InvitationMail): Promise<string | null> {
  const preview = await getInvitationPreview({ db: args.db, viewerId: args.actor.userId, token });
  // Only gone when the organisation was deleted in between: there is nobody to invite to.
  if (!preview) return null;
  const link = invitationLink(mail.auth.config.siteUrl, mail.locale, token);
  const rendered = await renderInvitationEmail(mail.locale, preview, link);
  await queueInvitationEmail(mail.auth, { to: preview.email, locale: mail.locale, rendered });
  return preview.email;
}
