import { sql } from "kysely";
import { isBanned } from "./accounts.server.ts";
import { recordAuthEvent } from "./audit.server.ts";
import type { AuthRuntime } from "./auth-runtime.server.ts";
import { childRefreshToken, hashToken, randomToken } from "./crypto.server.ts";
import { coreErrors, errors } from "./errors.server.ts";
import type { RequestMeta } from "./request-meta.server.ts";
import { type SessionJson, type SessionRow, sessionTokens } from "./sessions.server.ts";
import { findUserById } from "./users.server.ts";

interface RefreshTokenRow {
  token_hash: string;
  session_id: string;
  user_id: string;
  revoked: boolean;
  /** Rotated less than the reuse interval ago (the database's clock, as every instance shares it). */
  recently_revoked: boolean;
}

/**
 * POST /token?grant_type=refresh_token, with rotation: each refresh token is swapped for a new one
 * in the same session. Presenting a token that was already swapped means two parties hold the
 * session's tokens (one of them may have stolen it), so the whole session is revoked...
 *
 * ...unless it was swapped less than `refreshTokenReuseIntervalSeconds` ago (GoTrue's
 * security.refresh_token_reuse_interval, 10 s): two refreshes of one token racing (two tabs, or
 * the server rendering a page while the browser refreshes; supabase-js's lock only covers one
 * browser) or a client that lost the response. Then, as GoTrue does, the answer is a new access
 * token with the session's current refresh token, nothing is revoked and no new branch is made,
 * so every party ends up holding the same tokens. Each rotated token is derived from its parent
 * with the server's secret (childRefreshToken), which is how the current one is found again from
 * an older one although only hashes are stored.
 */
export async function refreshSession(
  auth: AuthRuntime,
  meta: RequestMeta,
  refreshToken: string | null | undefined,
): Promise<SessionJson> {
  if (!refreshToken) throw errors.validation("Refresh token is not valid");
  const db = auth.db.kysely;
  const tokenHash = hashToken(refreshToken);
  const presented = await findRefreshToken(auth, tokenHash);
  if (!presented) throw errors.refreshTokenNotFound();

  const session = (await sql<SessionRow>`select * from auth.sessions where id = ${presented.session_id}`.execute(db)).rows[0];
  const user = await findUserById(db, presented.user_id);
  if (!session || !user) throw errors.refreshTokenNotFound();
  if (isBanned(user)) throw coreErrors.refreshUserBanned();
  if (session.not_after && new Date(session.not_after).getTime() <= Date.now()) throw coreErrors.sessionExpired();

  let issued = presented.revoked ? null : await rotate(auth, presented, refreshToken);
  const reused = issued === null;
  if (issued === null) {
    // Rotated earlier, or by a concurrent request a moment ago: read it again to know when.
    const rotated = await findRefreshToken(auth, tokenHash);
    if (!rotated) throw errors.refreshTokenNotFound();
    issued = await currentTokenWithinInterval(auth, refreshToken, rotated);
    if (issued === null) return revokeReusedSession(auth, meta, rotated);
  }

  await sql`update auth.sessions set refreshed_at = now(), updated_at = now() where id = ${session.id}`.execute(db);
  await recordAuthEvent(auth, {
    action: "token_refreshed",
    actorId: user.id,
    ip: meta.ip,
    payload: reused ? { session_id: session.id, reused_within_interval: true } : { session_id: session.id },
  });
  return sessionTokens(auth, user, session, issued);
}

async function findRefreshToken(auth: AuthRuntime, tokenHash: string): Promise<RefreshTokenRow | null> {
  const { rows } = await sql<RefreshTokenRow>`
    select token_hash, session_id, user_id, revoked,
           revoked and updated_at > now() - make_interval(secs => ${auth.config.refreshTokenReuseIntervalSeconds}) as recently_revoked
    from auth.refresh_tokens where token_hash = ${tokenHash}`.execute(auth.db.kysely);
  return rows[0] ?? null;
}

/**
 * Swaps an active token for its child. Revoking it and storing the child happen in one
 * transaction, so a concurrent request for the same token waits for it, then finds it rotated
 * and its child stored. Null when that concurrent request won.
 */
async function rotate(auth: AuthRuntime, token: RefreshTokenRow, refreshToken: string): Promise<string | null> {
  const child = childRefreshToken(auth.keys.refreshTokenSecret, refreshToken);
  return auth.db.kysely.transaction().execute(async (trx) => {
    const revoked = await sql`update auth.refresh_tokens set revoked = true, updated_at = now()
                              where token_hash = ${token.token_hash} and not revoked`.execute(trx);
    if (Number(revoked.numAffectedRows ?? 0) !== 1) return null;
    await sql`insert into auth.refresh_tokens (token_hash, session_id, user_id, parent_hash)
              values (${hashToken(child)}, ${token.session_id}, ${token.user_id}, ${token.token_hash})`.execute(trx);
    return child;
  });
}

/**
 * For a token rotated within the reuse interval: the session's current refresh token, found by
 * deriving the chain of children from the presented token. When a link of the chain was not
 * derived (the random token an MFA step-up issues, or tokens from before derivation), a new token
 * is added to the session instead, as GoTrue's swap of a token within the interval does.
 * Null when the grace does not apply: the session must be revoked.
 */
async function currentTokenWithinInterval(
  auth: AuthRuntime,
  refreshToken: string,
  presented: RefreshTokenRow,
): Promise<string | null> {
  if (!presented.recently_revoked || auth.config.refreshTokenReuseIntervalSeconds <= 0) return null;
  const db = auth.db.kysely;
  const { rows } = await sql<{ token_hash: string; revoked: boolean }>`
    select token_hash, revoked from auth.refresh_tokens where session_id = ${presented.session_id}`.execute(db);
  const family = new Map(rows.map((r) => [r.token_hash, r.revoked]));
  let current = refreshToken;
  for (let step = 0; step < rows.length; step++) {
    const child = childRefreshToken(auth.keys.refreshTokenSecret, current);
    const revoked = family.get(hashToken(child));
    if (revoked === undefined) break;
    if (!revoked) return child;
    current = child;
  }
  const fresh = randomToken(24);
  await sql`insert into auth.refresh_tokens (token_hash, session_id, user_id, parent_hash)
            values (${hashToken(fresh)}, ${presented.session_id}, ${presented.user_id}, ${presented.token_hash})`.execute(db);
  return fresh;
}

async function revokeReusedSession(auth: AuthRuntime, meta: RequestMeta, reused: RefreshTokenRow): Promise<never> {
  // Deleting the session deletes every refresh token of it (on delete cascade).
  await sql`delete from auth.sessions where id = ${reused.session_id}`.execute(auth.db.kysely);
  await recordAuthEvent(auth, {
    action: "refresh_token_reused",
    actorId: reused.user_id,
    ip: meta.ip,
    payload: { session_id: reused.session_id },
  });
  throw errors.refreshTokenAlreadyUsed();
}
