import { sql } from "kysely";
import type { AuthRuntime } from "./auth-runtime.server.ts";
import { hashToken, randomToken } from "./crypto.server.ts";
import { type AmrEntry, signAccessToken } from "./jwt.server.ts";
import { type UserRow, userJson } from "./users.server.ts";

export interface SessionRow {
  id: string;
  user_id: string;
  aal: "aal1" | "aal2";
  factor_id: string | null;
  amr: AmrEntry[];
  created_at: Date;
  not_after: Date | null;
}

/** GoTrue's token response: what supabase-js stores as the session. */
export interface SessionJson {
  access_token: string;
  token_type: "bearer";
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Record<string, unknown>;
}

/** Starts a session for a user who just proved who they are (password, link, code…). */
export async function createSession(
  auth: AuthRuntime,
  user: UserRow,
  proof: { method: string; ip?: string; userAgent?: string | null },
): Promise<SessionJson> {
  const amr: AmrEntry[] = [{ method: proof.method, timestamp: Math.floor(Date.now() / 1000) }];
  const { rows } = await sql<SessionRow>`
    insert into auth.sessions (user_id, aal, amr, ip, user_agent)
    values (${user.id}, 'aal1', ${JSON.stringify(amr)}::jsonb, ${proof.ip ?? null}, ${proof.userAgent ?? null})
    returning *`.execute(auth.db.kysely);
  await sql`update auth.users set last_sign_in_at = now(), updated_at = now() where id = ${user.id}`.execute(auth.db.kysely);
  return issueTokens(auth, user, rows[0] as SessionRow, null);
}

/** A fresh access token and a new random refresh token for an existing session (sign-in, MFA step-up). */
export async function issueTokens(
  auth: AuthRuntime,
  user: UserRow,
  session: SessionRow,
  parentHash: string | null,
): Promise<SessionJson> {
  const refreshToken = randomToken(24);
  await sql`insert into auth.refresh_tokens (token_hash, session_id, user_id, parent_hash)
            values (${hashToken(refreshToken)}, ${session.id}, ${user.id}, ${parentHash})`.execute(auth.db.kysely);
  return sessionTokens(auth, user, session, refreshToken);
}

/** GoTrue's token response: a new access token for the session, with a refresh token already stored. */
export async function sessionTokens(
  auth: AuthRuntime,
  user: UserRow,
  session: SessionRow,
  refreshToken: string,
): Promise<SessionJson> {
  const now = Math.floor(Date.now() / 1000);
  const expiresAt = now + auth.config.jwtExpirySeconds;
  const accessToken = await signAccessToken(auth.keys, {
    iss: auth.config.authUrl,
    aud: user.aud,
    sub: user.id,
    exp: expiresAt,
    email: user.email ?? "",
    phone: user.phone ?? "",
    app_metadata: user.raw_app_meta_data,
    user_metadata: user.raw_user_meta_data,
    role: user.role,
    aal: session.aal,
    amr: session.amr,
    session_id: session.id,
    is_anonymous: user.is_anonymous,
  });
  return {
    access_token: accessToken,
    token_type: "bearer",
    expires_in: auth.config.jwtExpirySeconds,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: await userJson(auth.db, user),
  };
}
