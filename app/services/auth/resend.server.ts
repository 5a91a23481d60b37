import { isEmailConfirmed } from "./accounts.server.ts";
import { recordAuthEvent } from "./audit.server.ts";
import type { AuthRuntime } from "./auth-runtime.server.ts";
import { requireEmail } from "./email-address.server.ts";
import { sendLinkEmail } from "./email-links.server.ts";
import { coreErrors, errors } from "./errors.server.ts";
import { enforceEmailSendLimits } from "./limits.server.ts";
import { readPkceChallenge } from "./pkce-params.server.ts";
import { resolveRedirect } from "./redirects.server.ts";
import { localeFor, type RequestMeta } from "./request-meta.server.ts";
import { findUserByEmail } from "./users.server.ts";

/**
 * POST /resend: sends the sign-up confirmation again (unconfirmed accounts) or the email-change
 * link again (to the pending new address). Every valid request gets the same empty answer.
 */
export async function resendEmail(
  auth: AuthRuntime,
  meta: RequestMeta,
  input: {
    type?: string | null;
    email?: string | null;
    phone?: string | null;
    codeChallenge?: string | null;
    codeChallengeMethod?: string | null;
  },
): Promise<Record<string, never>> {
  const type = input.type;
  if (type === "sms" || type === "phone_change") throw coreErrors.phoneProviderDisabled();
  if (type !== "signup" && type !== "email_change") {
    throw errors.validation("Missing one of these types: signup, email_change, sms, phone_change");
  }
  if (input.email && input.phone) throw errors.validation("Only an email address or phone number should be provided.");
  if (!input.email) {
    throw errors.validation(
      type === "signup" ? "Type provided requires an email address" : "Missing email address or phone number",
    );
  }
  const email = requireEmail(input.email);
  const pkce = readPkceChallenge(input.codeChallenge, input.codeChallengeMethod);
  await enforceEmailSendLimits(auth, meta.ip, email);

  const user = await findUserByEmail(auth.db.kysely, email);
  if (!user) return {};
  const redirectTo = resolveRedirect(auth.config, meta.redirectTo);
  const locale = localeFor(meta, user);
  if (type === "signup") {
    if (isEmailConfirmed(user)) return {};
    await recordAuthEvent(auth, { action: "user_confirmation_requested", actorId: user.id, ip: meta.ip });
    await sendLinkEmail(auth, { userId: user.id, type: "confirmation", to: user.email ?? email, redirectTo, pkce, locale });
    return {};
  }
  if (!user.email_change) return {};
  await recordAuthEvent(auth, {
    action: "user_confirmation_requested",
    actorId: user.id,
    ip: meta.ip,
    payload: { type: "email_change" },
  });
  await sendLinkEmail(auth, { userId: user.id, type: "email_change", to: user.email_change, redirectTo, pkce, locale });
  return {};
}
