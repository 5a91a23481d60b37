import { isBanned, isEmailConfirmed } from "./accounts.server.ts";
import { recordAuthEvent } from "./audit.server.ts";
import type { AuthRuntime } from "./auth-runtime.server.ts";
import { AuthApiError, coreErrors, errors } from "./errors.server.ts";
import { addressKey, CORE_LIMITS, enforceLimit } from "./limits.server.ts";
import { assertStrongPassword, passwordProblems, verifyPassword } from "./passwords.server.ts";
import type { RequestMeta } from "./request-meta.server.ts";
import { createSession, type SessionJson } from "./sessions.server.ts";
import { findUserByEmail } from "./users.server.ts";

/**
 * POST /token?grant_type=password. Unknown address, no password and wrong password all answer
 * invalid_credentials after one bcrypt comparison. Unlike GoTrue, the ban and confirmation checks
 * come after the password check, so they tell nothing to someone who does not know it.
 */
export async function signInWithPassword(
  auth: AuthRuntime,
  meta: RequestMeta,
  input: { email?: string | null; phone?: string | null; password?: string | null },
): Promise<SessionJson & { weak_password?: { reasons: string[]; message: string } }> {
  if (input.email && input.phone) {
    throw errors.validation("Only an email address or phone number should be provided on login.");
  }
  if (!input.email && input.phone) throw coreErrors.phoneProviderDisabled();
  if (!input.email) throw errors.validation("missing email or phone");
  const password = input.password ?? "";
  await enforceLimit(auth, CORE_LIMITS.passwordPerAddress, addressKey(input.email), meta.ip);

  const user = await findUserByEmail(auth.db.kysely, input.email);
  const matches = await verifyPassword(password, user?.encrypted_password ?? null);
  if (!user?.encrypted_password || !matches) throw errors.invalidCredentials();
  if (isBanned(user)) throw coreErrors.userBanned();
  if (!isEmailConfirmed(user)) throw errors.emailNotConfirmed();

  await recordAuthEvent(auth, { action: "login", actorId: user.id, ip: meta.ip, payload: { provider: "email" } });
  const session = await createSession(auth, user, { method: "password", ip: meta.ip, userAgent: meta.userAgent });
  // GoTrue tells the client when a correct password no longer meets the policy, so it can ask for a new one.
  const weak = weakPasswordNotice(password);
  return weak ? { ...session, weak_password: weak } : session;
}

function weakPasswordNotice(password: string): { reasons: string[]; message: string } | null {
  try {
    assertStrongPassword(password);
    return null;
  } catch (error) {
    if (error instanceof AuthApiError) return { reasons: passwordProblems(password), message: error.message };
    throw error;
  }
}
