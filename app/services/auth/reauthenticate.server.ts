import { isEmailConfirmed } from "./accounts.server.ts";
import { recordAuthEvent } from "./audit.server.ts";
import type { AuthRuntime } from "./auth-runtime.server.ts";
import type { SignedInCaller } from "./bearer.server.ts";
import { sendReauthenticationCode } from "./email-links.server.ts";
import { coreErrors, errors } from "./errors.server.ts";
import { enforceEmailSendLimits } from "./limits.server.ts";
import { consumeCode } from "./one-time-tokens.server.ts";
import { localeFor, type RequestMeta } from "./request-meta.server.ts";

/** A session this young has just proved who the user is; no emailed nonce is needed on top. */
export const FRESH_SESSION_SECONDS = 5 * 60;

/** GET /reauthenticate: emails the signed-in user a code (the `nonce` of PUT /user). */
export async function requestReauthentication(
  auth: AuthRuntime,
  meta: RequestMeta,
  caller: SignedInCaller,
): Promise<Record<string, never>> {
  const { user } = caller;
  if (!user.email) throw errors.validation("Reauthentication requires the user to have an email or a phone number");
  if (!isEmailConfirmed(user)) throw coreErrors.verifyEmailFirst();
  await enforceEmailSendLimits(auth, meta.ip, user.email);
  await recordAuthEvent(auth, { action: "user_reauthenticate_requested", actorId: user.id, ip: meta.ip });
  await sendReauthenticationCode(auth, { userId: user.id, to: user.email, locale: localeFor(meta, user) });
  return {};
}

/**
 * Murmur's rule for replacing a password (stricter than GoTrue's 24 h default): a user who already
 * has one must show the emailed nonce, unless the session came from a recovery link or code (amr
 * "recovery": they just proved control of the mailbox) or started less than 5 minutes ago. Setting
 * a first password (magic-link or invited accounts) needs no nonce. The nonce works once.
 */
export async function requireReauthentication(auth: AuthRuntime, caller: SignedInCaller, nonce: string | null | undefined) {
  const { user, session } = caller;
  if (!user.encrypted_password) return;
  if (session.amr.some((entry) => entry.method === "recovery")) return;
  if (Date.now() - new Date(session.created_at).getTime() < FRESH_SESSION_SECONDS * 1000) return;
  if (!nonce) throw errors.reauthNonceMissing();
  const used = await consumeCode(auth, { email: user.email ?? "", code: nonce, types: ["reauthentication"], userId: user.id });
  if (!used) throw errors.reauthNotValid();
}
