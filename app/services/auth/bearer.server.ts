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
