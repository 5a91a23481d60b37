import type { AuthCall } from "../api/http.server.ts";
import { consumeRateLimit, type RateLimitRule } from "../rate-limit.server.ts";

/**
 * Every /factors call counts against the caller's IP and, once signed in, the user.
 * The per-user budget is what bounds TOTP guessing: ±1 step leaves 3 of 10^6 codes valid at a
 * time, so 30 tries per 5 minutes gives an attacker with a stolen password about one chance in
 * 11 000 per 5 minutes (roughly 40 days for an even chance), while a person who mistypes a few
 * codes never notices. The IP budget is a backstop against spraying many accounts from one
 * address; it is wide enough for a clinic of users behind one NAT.
 */
export const MFA_RATE_LIMITS = {
  perIp: { name: "mfa:ip", limit: 300, windowSeconds: 300 },
  perUser: { name: "mfa:user", limit: 30, windowSeconds: 300 },
} as const satisfies Record<string, RateLimitRule>;

/** GoTrue's MFA_MAX_ENROLLED_FACTORS and MFA_MAX_VERIFIED_FACTORS defaults. */
export const MAX_FACTORS_PER_USER = 10;

/** GoTrue's MFA_CHALLENGE_EXPIRY_DURATION default: a challenge must be answered within 5 minutes. */
export const CHALLENGE_EXPIRY_SECONDS = 300;

/**
 * GoTrue's MFA_FACTOR_EXPIRY_DURATION: an enrolment abandoned before its first challenge is
 * dropped after this long, so half-finished enrolments do not use up the factor budget.
 */
export const UNVERIFIED_FACTOR_EXPIRY_SECONDS = 300;

/** GoTrue's MFA phone max_frequency: at most one SMS per factor in this many seconds. */
export const SMS_MIN_INTERVAL_SECONDS = 5;

export function limitMfaByIp(call: AuthCall): Promise<void> {
  return consumeRateLimit(call.auth, MFA_RATE_LIMITS.perIp, call.ip);
}

export function limitMfaByUser(call: AuthCall, userId: string): Promise<void> {
  return consumeRateLimit(call.auth, MFA_RATE_LIMITS.perUser, userId);
}
