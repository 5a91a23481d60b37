import { createEmailUser } from "./accounts.server.ts";
import { recordAuthEvent } from "./audit.server.ts";
import type { AuthRuntime } from "./auth-runtime.server.ts";
import { requireEmail } from "./email-address.server.ts";
import { sendLinkEmail } from "./email-links.server.ts";
import { coreErrors, errors } from "./errors.server.ts";
import { enforceEmailSendLimits, enforceLimit, signupPerIpRule } from "./limits.server.ts";
import { readPkceChallenge } from "./pkce-params.server.ts";
import { resolveRedirect } from "./redirects.server.ts";
import { localeFor, type RequestMeta } from "./request-meta.server.ts";
import { findUserByEmail } from "./users.server.ts";

export interface OtpInput {
  email?: string | null;
  phone?: string | null;
  createUser?: boolean | null;
  data?: Record<string, unknown> | null;
  codeChallenge?: string | null;
  codeChallengeMethod?: string | null;
}

/**
 * POST /otp: emails a sign-in link and code. A new address gets an account (unconfirmed until the
 * link or code is used) unless the client said create_user: false, which GoTrue answers with
 * 422 otp_disabled. Unlike GoTrue, a new account gets the magic-link email rather than the sign-up
 * confirmation: both sign the person in and confirm the address.
 */
export async function requestOtp(auth: AuthRuntime, meta: RequestMeta, input: OtpInput): Promise<Record<string, never>> {
  if (input.email && input.phone) throw errors.validation("Only an email address or phone number should be provided");
  if (!input.email && input.phone) throw coreErrors.phoneProviderDisabled();
  if (!input.email) throw errors.validation("One of email or phone must be set");
  const email = requireEmail(input.email);
  const pkce = readPkceChallenge(input.codeChallenge, input.codeChallengeMethod);
  const data = input.data ?? {};

  await enforceLimit(auth, signupPerIpRule(auth), meta.ip, meta.ip);
  let user = await findUserByEmail(auth.db.kysely, email);
  if (!user && input.createUser === false) throw coreErrors.otpDisabled();
  if (!user && auth.config.disableSignup) throw errors.signupDisabled();
  await enforceEmailSendLimits(auth, meta.ip, email);
  const isNew = !user;
  if (!user) {
    user =
      (await createEmailUser(auth, { email, passwordHash: null, data, confirmed: false })) ??
      (await findUserByEmail(auth.db.kysely, email));
    if (!user) throw new Error("account vanished while creating it");
  }
  await recordAuthEvent(auth, { action: "magiclink_requested", actorId: user.id, ip: meta.ip, payload: { new_user: isNew } });
  await sendLinkEmail(auth, {
    userId: user.id,
    type: "magiclink",
    to: user.email ?? email,
    redirectTo: resolveRedirect(auth.config, meta.redirectTo),
    pkce,
    locale: localeFor(meta, user, data),
  });
  return {};
}
