import { importJWK, type JWK, errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { errors } from "./errors.server.ts";
import type { AuthKeys } from "./keys.server.ts";

export interface AmrEntry {
  method: string;
  timestamp: number;
}

/** The claims Supabase puts in an access token; RLS policies and the app read these. */
export interface AccessTokenClaims {
  iss: string;
  aud: string;
  sub: string;
  exp: number;
  iat: number;
  email: string;
  phone: string;
  app_metadata: Record<string, unknown>;
  user_metadata: Record<string, unknown>;
  role: string;
  aal: "aal1" | "aal2";
  amr: AmrEntry[];
  session_id: string;
  is_anonymous: boolean;
}

export async function signAccessToken(keys: AuthKeys, claims: Omit<AccessTokenClaims, "iat">): Promise<string> {
  const { exp, ...rest } = claims;
  return new SignJWT({ ...rest })
    .setProtectedHeader({ alg: "ES256", kid: keys.kid, typ: "JWT" })
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(keys.privateKey);
}

/**
 * Verifies signature, expiry and issuer; any failure is GoTrue's 403 bad_jwt. GoTrue's message
 * ends with golang-jwt's reason, so clients tell an expired token (refresh it) from a bad one by
 * the suffix "token has invalid claims: token is expired" (internal/api/auth.go parseJWTClaims).
 *
 * A token whose signature and issuer were verified once is remembered until it expires: a client
 * sends the same access token with every call for up to an hour, and the ES256 verification was
 * the largest single cost of an API call under load (issue 17 profile). A token is immutable, so
 * the remembered verdict cannot go stale except by time, and expiry is checked again on every
 * call. Only successes are remembered; the cache is per key set, so rotated keys start afresh.
 */
export async function verifyJwt(keys: AuthKeys, token: string, issuer: string): Promise<Record<string, unknown>> {
  const cache = verifiedCache(keys);
  const cached = cache.get(token);
  if (cached && cached.issuer === issuer) {
    if (cached.exp <= nowSeconds()) {
      cache.delete(token);
      throw errors.badJwt(JWT_EXPIRED);
    }
    return structuredClone(cached.payload);
  }
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, await publicKey(keys.publicJwk), { algorithms: ["ES256"], issuer }));
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw errors.badJwt(JWT_EXPIRED);
    throw errors.badJwt();
  }
  // Tokens without an expiry are never remembered: their verdict would never be re-checked.
  if (typeof payload.exp === "number") {
    if (cache.size >= VERIFIED_CACHE_MAX) cache.delete(cache.keys().next().value as string);
    cache.set(token, { payload: structuredClone(payload), exp: payload.exp, issuer });
  }
  return payload;
}

/** Enough for every signed-in client of a busy instance; the oldest entry goes first beyond it. */
const VERIFIED_CACHE_MAX = 10_000;

interface VerifiedToken {
  payload: Record<string, unknown>;
  exp: number;
  issuer: string;
}

const verifiedByKeys = new WeakMap<AuthKeys, Map<string, VerifiedToken>>();

function verifiedCache(keys: AuthKeys): Map<string, VerifiedToken> {
  let cache = verifiedByKeys.get(keys);
  if (!cache) {
    cache = new Map();
    verifiedByKeys.set(keys, cache);
  }
  return cache;
}

// jose's own rule (jwt_claims_set.ts): expired once exp <= now, in whole seconds.
const nowSeconds = () => Math.floor(Date.now() / 1000);

// The public JWK imported once per key, not on every verification.
const importedKeys = new WeakMap<JWK, Promise<CryptoKey | Uint8Array>>();
function publicKey(jwk: JWK): Promise<CryptoKey | Uint8Array> {
  let key = importedKeys.get(jwk);
  if (!key) {
    key = importJWK(jwk, "ES256");
    importedKeys.set(jwk, key);
  }
  return key;
}

/** golang-jwt v5's wording for an expired token, as GoTrue passes it on. */
export const JWT_EXPIRED = "token has invalid claims: token is expired";
