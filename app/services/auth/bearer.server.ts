import { sql } from "kysely";
import type { AuthCall } from "./api/http.server.ts";
import { bearerToken } from "./api/http.server.ts";
import { bearerErrors, errors } from "./errors.server.ts";
import { verifyJwt } from "./jwt.server.ts";
import type { SessionRow } from "./sessions.server.ts";
import { findUserById, type UserRow } from "./users.server.ts";
import { isUuid } from "./uuid.server.ts";

export interface SignedInCaller {
  /** The verified access-token payload. */
  claims: Record<string, unknown>;
  session: SessionRow;
  user: UserRow;
}

/**
 * The signed-in user behind `Authorization: Bearer <access token>`, as GoTrue's
 * requireAuthentication sees it: a valid signature is not enough, the token's session must
 * still exist (sign-out and refresh-token reuse delete it), so a revoked session stops at once.
 */
export async function requireSession(call: AuthCall): Promise<SignedInCaller> {
  const claims = await verifiedClaims(call);
  const sub = claims.sub;
  if (!isUuid(sub)) throw bearerErrors.missingSub();
  const sessionId = claims.session_id;
  if (!isUuid(sessionId)) throw errors.sessionNotFound();
  const db = call.auth.db.kysely;
  const { rows } = await sql<SessionRow>`select * from auth.sessions where id = ${sessionId} and user_id = ${sub}`.execute(db);
  const session = rows[0];
  if (!session) throw errors.sessionNotFound();
  const user = await findUserById(db, sub);
  if (!user) throw bearerErrors.userFromSubMissing();
  return { claims, session, user };
}

/**
 * requireSession's checks for the app's own API (services/session/api-user.server.ts) in one
 * round trip instead of three: the token's session still exists, its user exists, and whether
 * that user has a verified second factor (an aal1 token then owes it). Throws like requireSession.
 */
export async function requireApiSession(
  call: AuthCall,
): Promise<{ claims: Record<string, unknown>; userId: string; hasVerifiedFactor: boolean }> {
  const claims = await verifiedClaims(call);
  const sub = claims.sub;
  if (!isUuid(sub)) throw bearerErrors.missingSub();
  const sessionId = claims.session_id;
  if (!isUuid(sessionId)) throw errors.sessionNotFound();
  const { rows } = await sql<{ user_id: string | null; has_factor: boolean }>`
    select u.id as user_id,
           exists (select 1 from auth.mfa_factors f where f.user_id = s.user_id and f.status = 'verified') as has_factor
      from auth.sessions s left join auth.users u on u.id = s.user_id
     where s.id = ${sessionId} and s.user_id = ${sub}`.execute(call.auth.db.kysely);
  const row = rows[0];
  if (!row) throw errors.sessionNotFound();
  if (!row.user_id) throw bearerErrors.userFromSubMissing();
  return { claims, userId: row.user_id, hasVerifiedFactor: row.has_factor };
}

/** Admin endpoints: only the service-role key (or another token with role service_role) gets in. */
export async function requireServiceRole(call: AuthCall): Promise<Record<string, unknown>> {
  const claims = await verifiedClaims(call);
  if (claims.role !== "service_role") throw errors.notAdmin();
  return claims;
}

async function verifiedClaims(call: AuthCall): Promise<Record<string, unknown>> {
  const token = bearerToken(call.request);
  if (!token) throw errors.noAuthorization();
  return verifyJwt(call.auth.keys, token, call.auth.config.authUrl);
}
