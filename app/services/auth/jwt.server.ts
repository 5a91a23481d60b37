import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
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
 */
export async function verifyJwt(keys: AuthKeys, token: string, issuer: string): Promise<Record<string, unknown>> {
  try {
    const { payload } = await jwtVerify(token, keys.publicJwk, { algorithms: ["ES256"], issuer });
    return payload as Record<string, unknown>;
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw errors.badJwt(JWT_EXPIRED);
    throw errors.badJwt();
  }
}

/** golang-jwt v5's wording for an expired token, as GoTrue passes it on. */
export const JWT_EXPIRED = "token has invalid claims: token is expired";
