import { randomUUID } from "node:crypto";
import { createEmailUser, isEmailConfirmed, requireUser } from "./accounts.server.ts";
import { recordAuthEvent } from "./audit.server.ts";
import type { AuthRuntime } from "./auth-runtime.server.ts";
import { requireEmail } from "./email-address.server.ts";
import { sendLinkEmail } from "./email-links.server.ts";
import { coreErrors, errors } from "./errors.server.ts";
import { enforceEmailSendLimits, enforceLimit, signupPerIpRule } from "./limits.server.ts";
import { assertStrongPassword, hashPassword } from "./passwords.server.ts";
import { type PkceChallenge, readPkceChallenge } from "./pkce-params.server.ts";
import { resolveRedirect } from "./redirects.server.ts";
import { localeFor, type RequestMeta } from "./request-meta.server.ts";
import { createSession, type SessionJson } from "./sessions.server.ts";
import { findUserByEmail, type UserRow, userJson } from "./users.server.ts";

export interface SignupInput {
  email?: string | null;
  phone?: string | null;
  password?: string | null;
  data?: Record<string, unknown> | null;
  codeChallenge?: string | null;
  codeChallengeMethod?: string | null;
}

/**
 * POST /signup. With autoconfirm the answer is a session; otherwise the new, unconfirmed user and
 * a confirmation email. An address that already has an account gets a look-alike user object and
 * no email revealing it (GoTrue's anti-enumeration answer), unless autoconfirm makes that moot.
 */
export async function signUp(
  auth: AuthRuntime,
  meta: RequestMeta,
  input: SignupInput,
): Promise<SessionJson | Record<string, unknown>> {
  if (auth.config.disableSignup) throw errors.signupDisabled();
  if (!input.email && input.phone) throw coreErrors.phoneProviderDisabled();
  if (!input.password) throw errors.validation("Signup requires a valid password");
  assertStrongPassword(input.password);
  const email = requireEmail(input.email);
  const pkce = readPkceChallenge(input.codeChallenge, input.codeChallengeMethod);
  const data = input.data ?? {};
  const { autoconfirm } = auth.config;

  await enforceLimit(auth, signupPerIpRule(auth), meta.ip, meta.ip);
  if (!autoconfirm) await enforceEmailSendLimits(auth, meta.ip, email);
  // Hashed before the lookup, so new and existing addresses take the same time to answer.
  const passwordHash = await hashPassword(input.password);
  const existing = await findUserByEmail(auth.db.kysely, email);
  if (existing) return repeatedSignup(auth, meta, existing, { email, data, pkce, passwordHash });

  const user = await createEmailUser(auth, { email, passwordHash, data, confirmed: autoconfirm });
  if (!user) {
    const raced = await findUserByEmail(auth.db.kysely, email);
    if (raced) return repeatedSignup(auth, meta, raced, { email, data, pkce, passwordHash });
    throw new Error("sign-up lost a race to an account that then vanished");
  }
  const event = { actorId: user.id, ip: meta.ip, payload: { provider: "email" } };
  if (autoconfirm) {
    await recordAuthEvent(auth, { action: "user_signedup", ...event });
    await recordAuthEvent(auth, { action: "login", ...event });
    return createSession(auth, user, { method: "password", ip: meta.ip, userAgent: meta.userAgent });
  }
  await recordAuthEvent(auth, { action: "user_confirmation_requested", ...event });
  await sendConfirmation(auth, meta, user, { data, pkce, passwordHash });
  return userJson(auth.db, await requireUser(auth, user.id));
}

async function repeatedSignup(
  auth: AuthRuntime,
  meta: RequestMeta,
  user: UserRow,
  input: { email: string; data: Record<string, unknown>; pkce: PkceChallenge | null; passwordHash: string },
): Promise<Record<string, unknown>> {
  await recordAuthEvent(auth, { action: "user_repeated_signup", actorId: user.id, ip: meta.ip, payload: { provider: "email" } });
  // GoTrue would confirm an unconfirmed account here and hand out a session without checking its
  // password; Murmur refuses, since whoever signs up second does not own the account.
  if (auth.config.autoconfirm) throw errors.userAlreadyExists();
  if (!isEmailConfirmed(user)) {
    // The password is not replaced now: the caller has not proved they own the account. It rides
    // with the new link and becomes the password only if that link is redeemed (issue 17).
    await recordAuthEvent(auth, { action: "user_confirmation_requested", actorId: user.id, ip: meta.ip });
    await sendConfirmation(auth, meta, user, input);
  }
  return lookAlikeUser(input.email, input.data);
}

async function sendConfirmation(
  auth: AuthRuntime,
  meta: RequestMeta,
  user: UserRow,
  input: { data: Record<string, unknown>; pkce: PkceChallenge | null; passwordHash?: string },
): Promise<void> {
  await sendLinkEmail(auth, {
    userId: user.id,
    type: "confirmation",
    to: user.email ?? "",
    redirectTo: resolveRedirect(auth.config, meta.redirectTo),
    pkce: input.pkce,
    passwordHash: input.passwordHash ?? null,
    locale: localeFor(meta, user, input.data),
  });
}

/** GoTrue's sanitizeUser: the shape of a fresh sign-up with a random id and no identities. */
function lookAlikeUser(email: string, data: Record<string, unknown>): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    aud: "authenticated",
    role: "authenticated",
    email,
    phone: "",
    confirmation_sent_at: now,
    app_metadata: { provider: "email", providers: ["email"] },
    user_metadata: data,
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  };
}
