import { sql } from "kysely";
import { isBanned, isEmailConfirmed } from "./accounts.server.ts";
import { recordAuthEvent } from "./audit.server.ts";
import type { AuthRuntime } from "./auth-runtime.server.ts";
import { AuthApiError, coreErrors, errors } from "./errors.server.ts";
import { addressKey, configuredLimits, deviceKey, refuseOverLimit } from "./limits.server.ts";
import { assertStrongPassword, passwordProblems, verifyPassword } from "./passwords.server.ts";
import { countRateLimitHit, type RateLimitHit, refundRateLimitHit } from "./rate-limit.server.ts";
import type { RequestMeta } from "./request-meta.server.ts";
import { createSession, type SessionJson } from "./sessions.server.ts";
import { findUserByEmail, type UserRow } from "./users.server.ts";

/** A successful sign-in from an IP makes it a recognised device of that account for this long. */
const KNOWN_DEVICE_DAYS = 90;
const NIL_UUID = "00000000-0000-0000-0000-000000000000";

/**
 * POST /token?grant_type=password. Unknown address, no password and wrong password all answer
 * invalid_credentials after one bcrypt comparison. Unlike GoTrue, the ban and confirmation checks
 * come after the password check, so they tell nothing to someone who does not know it.
 *
 * Guessing is limited per address without handing anyone a way to lock the owner out
 * (docs/auth.md "Password guessing"): only wrong passwords count, and once an address has had too
 * many (CORE_LIMITS.passwordPerAddress) only devices that signed in to the account before
 * may keep trying, each with its own budget. Everyone else gets 429 whatever the password, so a
 * right guess is refused too; the owner on a new device can still use a magic link or recovery.
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

  const user = await findUserByEmail(auth.db.kysely, input.email);
  const attempts = await countAttempt(auth, meta, input.email, user);
  const matches = await verifyPassword(password, user?.encrypted_password ?? null);
  if (!user?.encrypted_password || !matches) throw errors.invalidCredentials();
  // Counted before checking, so that concurrent guesses cannot slip past the limit; a correct
  // password is not a failure and gives its hits back.
  for (const hit of attempts) await refundRateLimitHit(auth, hit);
  if (isBanned(user)) throw coreErrors.userBanned();
  if (!isEmailConfirmed(user)) throw errors.emailNotConfirmed();

  await recordAuthEvent(auth, { action: "login", actorId: user.id, ip: meta.ip, payload: { provider: "email" } });
  const session = await createSession(auth, user, { method: "password", ip: meta.ip, userAgent: meta.userAgent });
  // GoTrue tells the client when a correct password no longer meets the policy, so it can ask for a new one.
  const weak = weakPasswordNotice(password);
  return weak ? { ...session, weak_password: weak } : session;
}

/**
 * Counts this attempt as a failure of the address (given back if the password is right). Past the
 * address's limit, refuses it unless it comes from a device that signed in to the account before,
 * which then has its own limit. Throws 429 over_request_rate_limit.
 */
async function countAttempt(auth: AuthRuntime, meta: RequestMeta, email: string, user: UserRow | null): Promise<RateLimitHit[]> {
  const addressHit = await countRateLimitHit(auth, configuredLimits(auth).passwordPerAddress, addressKey(email));
  if (!addressHit.exceeded) return [addressHit];
  // Asked for unknown addresses too (of nobody), so the answer and its timing do not tell them apart.
  if (!(await hasSignedInFrom(auth, user?.id ?? NIL_UUID, meta.ip))) {
    return refuseOverLimit(auth, configuredLimits(auth).passwordPerAddress, meta.ip);
  }
  const deviceHit = await countRateLimitHit(auth, configuredLimits(auth).passwordPerDevice, deviceKey(email, meta.ip));
  if (deviceHit.exceeded) return refuseOverLimit(auth, configuredLimits(auth).passwordPerDevice, meta.ip);
  return [addressHit, deviceHit];
}

/** Whether the account was signed in to (any method, or confirmed by link) from this IP lately. */
async function hasSignedInFrom(auth: AuthRuntime, userId: string, ip: string): Promise<boolean> {
  const { rows } = await sql`
    select 1 from auth.audit_log_entries
    where actor_id = ${userId} and ip = ${ip} and action in ('login', 'user_signedup')
      and created_at > now() - make_interval(days => ${KNOWN_DEVICE_DAYS})
    limit 1`.execute(auth.db.kysely);
  return rows.length > 0;
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
