import { recordAuthEvent } from "./audit.server.ts";
import type { AuthRuntime } from "./auth-runtime.server.ts";
import { requireEmail } from "./email-address.server.ts";
import { AuthApiError, coreErrors, errors } from "./errors.server.ts";
import { issueAuthCode } from "./flow-state.server.ts";
import { addressKey, CORE_LIMITS, configuredLimits, enforceLimit } from "./limits.server.ts";
import { consumeCode, consumeLinkToken, type OneTimeTokenRow } from "./one-time-tokens.server.ts";
import { resolveRedirect } from "./redirects.server.ts";
import type { RequestMeta } from "./request-meta.server.ts";
import { createSession, type SessionJson } from "./sessions.server.ts";
import { applyVerification, tokenTypesFor } from "./verification.server.ts";

/** GoTrue's OAuth error names by status, for the `error` field of a failed link's redirect. */
const OAUTH_ERRORS: Record<number, string> = {
  400: "invalid_request",
  401: "unauthorized_client",
  403: "access_denied",
  500: "server_error",
  503: "temporarily_unavailable",
};

/**
 * GET /verify: the link in an email. Always ends in a redirect to an allowed target: with the
 * session in the fragment (implicit flow), with ?code= (PKCE, the link was requested with a code
 * challenge), or with the error in the fragment (used, expired or unknown link). Returns the Location.
 */
export async function verifyLink(
  auth: AuthRuntime,
  meta: RequestMeta,
  input: { token?: string | null; type?: string | null },
): Promise<string> {
  if (!input.type) throw errors.validation("Verify requires a verification type");
  if (!input.token) throw errors.validation("Verify requires a token or a token hash");
  const types = tokenTypesFor(input.type);
  await enforceLimit(auth, configuredLimits(auth).verifyPerIp, meta.ip, meta.ip);

  const fallback = resolveRedirect(auth.config, meta.redirectTo);
  const token = await consumeLinkToken(auth, input.token, types);
  if (!token) {
    await recordFailure(auth, meta, input.type);
    return withError(fallback, coreErrors.emailLinkExpired());
  }
  // The target chosen when the email was requested (already allowed then) wins over the link's copy.
  const target = token.redirect_to ? resolveRedirect(auth.config, token.redirect_to) : fallback;
  try {
    const verified = await applyVerification(auth, meta, token);
    if (token.code_challenge && token.code_challenge_method) {
      const code = await issueAuthCode(auth, {
        userId: verified.user.id,
        pkce: { challenge: token.code_challenge, method: token.code_challenge_method },
        authenticationMethod: verified.flowMethod,
      });
      const url = new URL(target);
      url.searchParams.set("code", code);
      return url.toString();
    }
    const session = await createSession(auth, verified.user, {
      method: verified.sessionMethod,
      ip: meta.ip,
      userAgent: meta.userAgent,
    });
    return withFragment(target, {
      access_token: session.access_token,
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      refresh_token: session.refresh_token,
      sb: "",
      token_type: session.token_type,
      type: input.type,
    });
  } catch (error) {
    if (error instanceof AuthApiError) return withError(target, error);
    throw error;
  }
}

/** POST /verify: a typed 6-digit code (with the email it was sent to) or a link's token as `token_hash`. */
export async function verifyCode(
  auth: AuthRuntime,
  meta: RequestMeta,
  input: {
    type?: string | null;
    token?: string | null;
    tokenHash?: string | null;
    email?: string | null;
    phone?: string | null;
  },
): Promise<SessionJson> {
  if (!input.type) throw errors.validation("Verify requires a verification type");
  if (!input.token === !input.tokenHash) throw errors.validation("Verify requires either a token or a token hash");
  const types = tokenTypesFor(input.type);
  await enforceLimit(auth, configuredLimits(auth).verifyPerIp, meta.ip, meta.ip);

  let token: OneTimeTokenRow | null;
  if (input.token) {
    if (input.phone && !input.email) throw coreErrors.phoneProviderDisabled();
    if (!input.email || input.phone) {
      throw errors.validation("Only an email address or phone number should be provided on verify");
    }
    const email = requireEmail(input.email);
    await enforceLimit(auth, CORE_LIMITS.verifyCodePerAddress, addressKey(email), meta.ip);
    token = await consumeCode(auth, { email, code: input.token, types });
    if (!token) {
      await recordFailure(auth, meta, input.type);
      throw errors.otpExpired();
    }
  } else {
    if (input.email || input.phone) throw errors.validation("Only the token_hash and type should be provided");
    token = await consumeLinkToken(auth, input.tokenHash ?? "", types);
    if (!token) {
      await recordFailure(auth, meta, input.type);
      throw coreErrors.emailLinkExpired();
    }
  }
  const verified = await applyVerification(auth, meta, token);
  return createSession(auth, verified.user, { method: verified.sessionMethod, ip: meta.ip, userAgent: meta.userAgent });
}

function recordFailure(auth: AuthRuntime, meta: RequestMeta, type: string): Promise<void> {
  return recordAuthEvent(auth, { action: "verification_failed", ip: meta.ip, payload: { type } });
}

function withFragment(target: string, params: Record<string, string>): string {
  const url = new URL(target);
  url.hash = new URLSearchParams(params).toString();
  return url.toString();
}

/** GoTrue's error redirect: error, error_code and error_description in the fragment. */
function withError(target: string, error: AuthApiError): string {
  const params: Record<string, string> = {};
  const name = OAUTH_ERRORS[error.status];
  if (name) params.error = name;
  params.error_code = error.code;
  params.error_description = error.message;
  params.sb = "";
  return withFragment(target, params);
}
