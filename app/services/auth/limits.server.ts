import { recordAuthEvent } from "./audit.server.ts";
import type { AuthRuntime } from "./auth-runtime.server.ts";
import { hashToken } from "./crypto.server.ts";
import { AuthApiError, errors } from "./errors.server.ts";
import { consumeRateLimit, type RateLimitRule } from "./rate-limit.server.ts";
import { normalizeEmail } from "./users.server.ts";

/**
 * The core auth API's rate limits, modelled on GoTrue's defaults. Address-based limits are counted
 * for every request, whether or not the address has an account, so a 429 never reveals one.
 */
export const CORE_LIMITS = {
  /** Every /token grant, per IP: GoTrue's RATE_LIMIT_TOKEN_REFRESH (150 per 5 minutes). */
  tokenPerIp: { name: "token:ip", limit: 150, windowSeconds: 300 },
  /**
   * Wrong passwords against one address, whatever the IP. Past it the address is under attack:
   * only devices that signed in to it before may still try (password-grant.server.ts), so guessing
   * stops without locking the owner out. Correct passwords are not counted.
   */
  passwordPerAddress: { name: "password-failures:email", limit: 10, windowSeconds: 300 },
  /** Wrong passwords from one recognised device (address and IP) while its address is under attack. */
  passwordPerDevice: { name: "password-failures:device", limit: 10, windowSeconds: 300 },
  /** GET and POST /verify, per IP: GoTrue's RATE_LIMIT_VERIFY (30 per 5 minutes). */
  verifyPerIp: { name: "verify:ip", limit: 30, windowSeconds: 300 },
  /** 6-digit code guesses against one address: with a 1 h code lifetime, at most 120 of 10^6 codes. */
  verifyCodePerAddress: { name: "verify:email", limit: 10, windowSeconds: 300 },
  /** Account creation per IP (sign-up, and /otp which may create the account): GoTrue's RATE_LIMIT_OTP. */
  signupPerIp: { name: "signup:ip", limit: 30, windowSeconds: 300 },
  /** Emails requested per IP: GoTrue's RATE_LIMIT_EMAIL_SENT (30 per hour), counted per IP here. */
  emailPerIp: { name: "email:ip", limit: 30, windowSeconds: 3600 },
  /** Emails to one address: stands in for GoTrue's SMTP_MAX_FREQUENCY (one per 60 s), a little looser. */
  emailPerAddress: { name: "email:address", limit: 3, windowSeconds: 60 },
} satisfies Record<string, RateLimitRule>;

/** Consumes one hit of `rule` for `key`; when exhausted, records `rate_limited` and throws `overflow`. */
export async function enforceLimit(
  auth: AuthRuntime,
  rule: RateLimitRule,
  key: string,
  ip: string,
  overflow: () => AuthApiError = errors.rateLimited,
): Promise<void> {
  try {
    await consumeRateLimit(auth, rule, key);
  } catch (error) {
    if (!(error instanceof AuthApiError) || error.status !== 429) throw error;
    await refuseOverLimit(auth, rule, ip, overflow);
  }
}

/** Address buckets are keyed by a hash, so the counters table holds no email addresses. */
export function addressKey(email: string): string {
  return hashToken(normalizeEmail(email));
}

/** The per-IP account-creation limit, with the operator's AUTH_RATE_LIMIT_OTP. */
export function signupPerIpRule(auth: AuthRuntime): RateLimitRule {
  return { ...CORE_LIMITS.signupPerIp, limit: auth.config.rateLimits.accountsPer5Min };
}

/** The limits an operator sets by environment (AUTH_RATE_LIMIT_*, GoTrue's names where it has them). */
export function configuredLimits(auth: AuthRuntime) {
  const r = auth.config.rateLimits;
  return {
    tokenPerIp: { ...CORE_LIMITS.tokenPerIp, limit: r.tokenPer5Min },
    verifyPerIp: { ...CORE_LIMITS.verifyPerIp, limit: r.verifyPer5Min },
    passwordPerAddress: { ...CORE_LIMITS.passwordPerAddress, limit: r.passwordFailuresPer5Min },
    passwordPerDevice: { ...CORE_LIMITS.passwordPerDevice, limit: r.passwordFailuresPer5Min },
  } satisfies Record<string, RateLimitRule>;
}

/** One address seen from one IP, hashed like addressKey. */
export function deviceKey(email: string, ip: string): string {
  return hashToken(`${normalizeEmail(email)}\n${ip}`);
}

/** Records that `rule` refused a request, and throws `overflow` (GoTrue's 429 by default). */
export async function refuseOverLimit(
  auth: AuthRuntime,
  rule: RateLimitRule,
  ip: string,
  overflow: () => AuthApiError = errors.rateLimited,
): Promise<never> {
  await recordAuthEvent(auth, { action: "rate_limited", ip, payload: { rule: rule.name } });
  throw overflow();
}

/** The two limits on every request that sends an email: per IP and per recipient address. */
export async function enforceEmailSendLimits(auth: AuthRuntime, ip: string, email: string): Promise<void> {
  const perIp = { ...CORE_LIMITS.emailPerIp, limit: auth.config.rateLimits.emailSentPerHour };
  await enforceLimit(auth, perIp, ip, ip, errors.emailRateLimited);
  await enforceLimit(auth, CORE_LIMITS.emailPerAddress, addressKey(email), ip, errors.emailRateLimited);
}
