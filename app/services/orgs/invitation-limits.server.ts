import type { Locale } from "#app/i18n/config.ts";
import type { AuthRuntime } from "#app/services/auth/auth-runtime.server.ts";
import { addressKey } from "#app/services/auth/limits.server.ts";
import {
  countRateLimitHit,
  type RateLimitHit,
  type RateLimitRule,
  refundRateLimitHit,
} from "#app/services/auth/rate-limit.server.ts";
import { AppError } from "#app/utils/app-error.ts";
import enInvites from "../../../locales/en/invites.json" with { type: "json" };
import esInvites from "../../../locales/es/invites.json" with { type: "json" };
import frInvites from "../../../locales/fr/invites.json" with { type: "json" };

// Issue 25: resending one invitation 20 times in 1.2 s sent 20 emails to an outside address, and
// revoke/re-invite loops did the same. Every invitation email (invite or resend) now counts against
// the organisation, the inviter and the recipient, in the auth server's shared counters
// (auth.rate_limits, fixed windows), so the limits hold across restarts and processes.
export const INVITATION_EMAIL_LIMITS = {
  /** A practice onboarding its whole team in an afternoon stays well under it. */
  perOrg: { name: "invite-email:org", limit: 50, windowSeconds: 3600 },
  perInviter: { name: "invite-email:inviter", limit: 30, windowSeconds: 3600 },
  /** One address, in one organisation, whether by resending or by revoking and inviting again. */
  perRecipient: { name: "invite-email:recipient", limit: 3, windowSeconds: 3600 },
} satisfies Record<string, RateLimitRule>;

const MESSAGES = { en: enInvites, fr: frInvites, es: esInvites };

export function invitationRateLimited(locale: Locale): AppError {
  return new AppError(429, "invitation_rate_limited", MESSAGES[locale].errors.invitation_rate_limited);
}

/**
 * Counts one invitation email before anything is written; over any limit it gives the hits back (a refused attempt sends
 * nothing, so it must not use up the organisation's allowance) and throws 429
 * invitation_rate_limited, with its message in the inviter's language.
 */
export async function countInvitationEmail(
  auth: AuthRuntime,
  input: { orgId: string; inviterId: string; recipient: { email: string } | { invitationId: string }; locale: Locale },
): Promise<RateLimitHit[]> {
  const recipientKey =
    "email" in input.recipient ? addressKey(input.recipient.email) : `invitation:${input.recipient.invitationId}`;
  const hits: RateLimitHit[] = [];
  hits.push(await countRateLimitHit(auth, INVITATION_EMAIL_LIMITS.perRecipient, `${input.orgId}:${recipientKey}`));
  hits.push(await countRateLimitHit(auth, INVITATION_EMAIL_LIMITS.perInviter, input.inviterId));
  hits.push(await countRateLimitHit(auth, INVITATION_EMAIL_LIMITS.perOrg, input.orgId));
  if (!hits.some((h) => h.exceeded)) return hits;
  await refundInvitationEmail(auth, hits);
  throw invitationRateLimited(input.locale);
}

/** Gives back the hits of an invitation email that was not sent after all (the invitation failed). */
export async function refundInvitationEmail(auth: AuthRuntime, hits: RateLimitHit[]): Promise<void> {
  for (const hit of hits) await refundRateLimitHit(auth, hit);
}
