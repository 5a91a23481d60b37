import { sql } from "kysely";
import { isBanned } from "./accounts.server.ts";
import { recordAuthEvent } from "./audit.server.ts";
import type { AuthRuntime } from "./auth-runtime.server.ts";
import { hashToken } from "./crypto.server.ts";
import { coreErrors, errors } from "./errors.server.ts";
import type { RequestMeta } from "./request-meta.server.ts";
import { issueTokens, type SessionJson, type SessionRow } from "./sessions.server.ts";
import { findUserById } from "./users.server.ts";

/**
 * POST /token?grant_type=refresh_token, with rotation: each refresh token works once and is
 * swapped for a new one in the same session. Presenting a token that was already swapped means
 * two parties hold the session's tokens (one of them stole it), so the whole session is revoked.
 *
 * GoTrue tolerates reuse for 10 s (REFRESH_TOKEN_REUSE_INTERVAL) for clients that lost a response.
 * Murmur has no grace interval: supabase-js serialises refreshes across tabs with its lock (SPEC
 * §9), so a legitimate client never presents a token twice, and a grace window would let a thief
 * who replays quickly keep the session.
 */
export async function refreshSession(
  auth: AuthRuntime,
  meta: RequestMeta,
  refreshToken: string | null | undefined,
): Promise<SessionJson> {
  if (!refreshToken) throw errors.validation("Refresh token is not valid");
  const db = auth.db.kysely;
  const tokenHash = hashToken(refreshToken);
  // One statement finds and revokes the token, so two concurrent uses cannot both succeed.
  const { rows } = await sql<{ session_id: string; user_id: string }>`
    update auth.refresh_tokens set revoked = true, updated_at = now()
    where token_hash = ${tokenHash} and not revoked
    returning session_id, user_id`.execute(db);
  const current = rows[0];
  if (!current) return rejectUsedOrUnknown(auth, meta, tokenHash);

  const session = (await sql<SessionRow>`select * from auth.sessions where id = ${current.session_id}`.execute(db)).rows[0];
  const user = await findUserById(db, current.user_id);
  if (!session || !user) throw errors.refreshTokenNotFound();
  if (isBanned(user)) throw coreErrors.refreshUserBanned();
  if (session.not_after && new Date(session.not_after).getTime() <= Date.now()) throw coreErrors.sessionExpired();

  await sql`update auth.sessions set refreshed_at = now(), updated_at = now() where id = ${session.id}`.execute(db);
  await recordAuthEvent(auth, { action: "token_refreshed", actorId: user.id, ip: meta.ip, payload: { session_id: session.id } });
  return issueTokens(auth, user, session, tokenHash);
}

async function rejectUsedOrUnknown(auth: AuthRuntime, meta: RequestMeta, tokenHash: string): Promise<never> {
  const db = auth.db.kysely;
  const { rows } = await sql<{ session_id: string; user_id: string }>`
    select session_id, user_id from auth.refresh_tokens where token_hash = ${tokenHash}`.execute(db);
  const reused = rows[0];
  if (!reused) throw errors.refreshTokenNotFound();
  // Deleting the session deletes every refresh token of it (on delete cascade).
  await sql`delete from auth.sessions where id = ${reused.session_id}`.execute(db);
  await recordAuthEvent(auth, {
    action: "refresh_token_reused",
    actorId: reused.user_id,
    ip: meta.ip,
    payload: { session_id: reused.session_id },
  });
  throw errors.refreshTokenAlreadyUsed();
}
