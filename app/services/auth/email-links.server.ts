import type { Locale } from "#app/i18n/config.ts";
import { markSent } from "./accounts.server.ts";
import type { AuthRuntime } from "./auth-runtime.server.ts";
import { type AuthEmailTemplate, sendAuthEmail } from "./mailer.server.ts";
import { issueOneTimeToken, type OneTimeTokenType } from "./one-time-tokens.server.ts";
import type { PkceChallenge } from "./pkce-params.server.ts";

export type LinkTokenType = Exclude<OneTimeTokenType, "reauthentication">;

/** Per purpose: the email template, the `type` the link carries to /verify, and the column that dates it. */
const LINKS = {
  confirmation: { template: "confirmation", linkType: "signup", sentColumn: "confirmation_sent_at" },
  invite: { template: "invite", linkType: "invite", sentColumn: "confirmation_sent_at" },
  magiclink: { template: "magic_link", linkType: "magiclink", sentColumn: "recovery_sent_at" },
  recovery: { template: "recovery", linkType: "recovery", sentColumn: "recovery_sent_at" },
  email_change: { template: "email_change", linkType: "email_change", sentColumn: "email_change_sent_at" },
} as const satisfies Record<LinkTokenType, { template: AuthEmailTemplate; linkType: string; sentColumn: string }>;

/**
 * Emails a single-use link to `${authUrl}/verify` and the matching 6-digit code. `redirectTo` must
 * already be allowed (see redirects.server.ts); `pkce` makes the link come back with ?code=.
 */
export async function sendLinkEmail(
  auth: AuthRuntime,
  input: {
    userId: string;
    type: LinkTokenType;
    to: string;
    redirectTo: string;
    pkce: PkceChallenge | null;
    locale: Locale;
    /** Sign-up confirmation: the password this sign-up chose, set when its link is redeemed. */
    passwordHash?: string | null;
  },
): Promise<void> {
  const spec = LINKS[input.type];
  const { token, code } = await issueOneTimeToken(auth, {
    userId: input.userId,
    type: input.type,
    relatesTo: input.to,
    redirectTo: input.redirectTo,
    pkce: input.pkce,
    passwordHash: input.passwordHash ?? null,
  });
  const query = new URLSearchParams({ token, type: spec.linkType, redirect_to: input.redirectTo });
  const link = `${auth.config.authUrl}/verify?${query}`;
  await sendAuthEmail(auth, { template: spec.template, to: input.to, locale: input.locale, link, code });
  await markSent(auth, input.userId, spec.sentColumn);
}

/** Emails the code a signed-in user types to confirm a sensitive change (GET /reauthenticate). */
export async function sendReauthenticationCode(
  auth: AuthRuntime,
  input: { userId: string; to: string; locale: Locale },
): Promise<void> {
  const { code } = await issueOneTimeToken(auth, { userId: input.userId, type: "reauthentication", relatesTo: input.to });
  await sendAuthEmail(auth, { template: "reauthentication", to: input.to, locale: input.locale, code });
  await markSent(auth, input.userId, "reauthentication_sent_at");
}
