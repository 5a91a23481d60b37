import type { Env } from "#app/utils/env.server.ts";

/** How the embedded auth service behaves; mirrors GoTrue's settings of the same meaning. */
export interface AuthConfig {
  /** Public base of the site, e.g. https://scribe.example.org (no trailing slash). */
  siteUrl: string;
  /** Where the auth API is served: `${siteUrl}/auth/v1`; also the JWT issuer. */
  authUrl: string;
  jwtExpirySeconds: number;
  /** How long a rotated refresh token may be presented again without revoking its session (0: never). */
  refreshTokenReuseIntervalSeconds: number;
  autoconfirm: boolean;
  /** Per-IP limits an operator may tune, as GoTrue's RATE_LIMIT_EMAIL_SENT (per hour) and RATE_LIMIT_OTP (per 5 min). */
  rateLimits: {
    emailSentPerHour: number;
    accountsPer5Min: number;
    tokenPer5Min: number;
    verifyPer5Min: number;
    passwordFailuresPer5Min: number;
  };
  disableSignup: boolean;
  /** Redirect targets allowed besides the site itself (GoTrue's URI_ALLOW_LIST). */
  redirectAllowList: string[];
  /** One-time link and code lifetimes. */
  otpExpirySeconds: number;
  flowStateExpirySeconds: number;
  mailboxEnabled: boolean;
  smtpUrl?: string;
  smtpFrom: string;
}

export function authConfigFromEnv(env: Env): AuthConfig {
  const siteUrl = (env.SITE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
  return {
    siteUrl,
    authUrl: `${siteUrl}/auth/v1`,
    jwtExpirySeconds: env.AUTH_JWT_EXPIRY,
    refreshTokenReuseIntervalSeconds: env.AUTH_REFRESH_TOKEN_REUSE_INTERVAL,
    autoconfirm: env.AUTH_EMAIL_AUTOCONFIRM,
    rateLimits: {
      emailSentPerHour: env.AUTH_RATE_LIMIT_EMAIL_SENT,
      accountsPer5Min: env.AUTH_RATE_LIMIT_OTP,
      tokenPer5Min: env.AUTH_RATE_LIMIT_TOKEN_REFRESH,
      verifyPer5Min: env.AUTH_RATE_LIMIT_VERIFY,
      passwordFailuresPer5Min: env.AUTH_RATE_LIMIT_PASSWORD_FAILURES,
    },
    disableSignup: env.AUTH_DISABLE_SIGNUP,
    redirectAllowList: env.AUTH_ADDITIONAL_REDIRECT_URLS.split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    otpExpirySeconds: 3600,
    flowStateExpirySeconds: 300,
    mailboxEnabled: env.MURMUR_DEV_MAILBOX,
    smtpUrl: env.SMTP_URL,
    smtpFrom: env.SMTP_FROM,
  };
}
