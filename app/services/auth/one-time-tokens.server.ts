import { sql } from "kysely";
import type { AuthRuntime } from "./auth-runtime.server.ts";
import { codeHash, codeHashes } from "./code-hash.server.ts";
import { hashToken, randomDigits, randomToken } from "./crypto.server.ts";
import type { PkceChallenge } from "./pkce-params.server.ts";
import { normalizeEmail } from "./users.server.ts";

export type OneTimeTokenType = "confirmation" | "recovery" | "invite" | "magiclink" | "email_change" | "reauthentication";

export interface OneTimeTokenRow {
  id: string;
  user_id: string;
  token_type: OneTimeTokenType;
  relates_to: string;
  redirect_to: string | null;
  code_challenge: string | null;
  code_challenge_method: "s256" | "plain" | null;
  expires_at: Date;
  used_at: Date | null;
  /** A confirmation link's sign-up password (bcrypt), applied when the link is redeemed. */
  password_hash: string | null;
}

/**
 * A new link token and 6-digit code for one purpose. Only their hashes are stored; any earlier
 * unused token of the same purpose is dropped, so only the latest email works (as in GoTrue).
 */
export async function issueOneTimeToken(
  auth: AuthRuntime,
  input: {
    userId: string;
    type: OneTimeTokenType;
    /** The address the email goes to (the new address for an email change). */
    relatesTo: string;
    redirectTo?: string | null;
    pkce?: PkceChallenge | null;
    passwordHash?: string | null;
  },
): Promise<{ token: string; code: string }> {
  const token = randomToken();
  const code = randomDigits(6);
  const db = auth.db.kysely;
  await sql`delete from auth.one_time_tokens
            where user_id = ${input.userId} and token_type = ${input.type} and used_at is null`.execute(db);
  await sql`insert into auth.one_time_tokens
              (user_id, token_type, token_hash, otp_hash, relates_to, redirect_to, code_challenge, code_challenge_method, password_hash, expires_at)
            values (${input.userId}, ${input.type}, ${hashToken(token)}, ${codeHash(auth.secrets.current, code)}, ${normalizeEmail(input.relatesTo)},
                    ${input.redirectTo ?? null}, ${input.pkce?.challenge ?? null}, ${input.pkce?.method ?? null}, ${input.passwordHash ?? null},
                    now() + make_interval(secs => ${auth.config.otpExpirySeconds}))`.execute(db);
  return { token, code };
}

// Marking a row used in the same statement that finds it makes every token single use, even
// when two requests race: the second one finds `used_at` already set.
const consumable = sql`used_at is null and expires_at > now()`;

/** The token behind an email link (or the `token_hash` a client posts), used up; null when invalid. */
export async function consumeLinkToken(
  auth: AuthRuntime,
  token: string,
  types: readonly OneTimeTokenType[],
): Promise<OneTimeTokenRow | null> {
  const { rows } = await sql<OneTimeTokenRow>`
    update auth.one_time_tokens set used_at = now()
    where token_hash = ${hashToken(token)} and token_type = any(${[...types]}::text[]) and ${consumable}
    returning *`.execute(auth.db.kysely);
  return rows[0] ?? null;
}

/** The token whose 6-digit code was sent to `email`, used up; null when invalid. */
export async function consumeCode(
  auth: AuthRuntime,
  input: { email: string; code: string; types: readonly OneTimeTokenType[]; userId?: string },
): Promise<OneTimeTokenRow | null> {
  const { rows } = await sql<OneTimeTokenRow>`
    update auth.one_time_tokens set used_at = now()
    where id = (
      select id from auth.one_time_tokens
      where relates_to = ${normalizeEmail(input.email)} and otp_hash = any(${codeHashes(auth.secrets, input.code)}::text[])
        and token_type = any(${[...input.types]}::text[]) and ${consumable}
        ${input.userId ? sql`and user_id = ${input.userId}` : sql``}
      order by created_at desc limit 1)
    and ${consumable}
    returning *`.execute(auth.db.kysely);
  return rows[0] ?? null;
}

/** After a password change every outstanding link and code is void (GoTrue does the same). */
export async function clearOneTimeTokens(auth: AuthRuntime, userId: string): Promise<void> {
  await sql`delete from auth.one_time_tokens where user_id = ${userId} and used_at is null`.execute(auth.db.kysely);
}

/**
 * The address an unused, unexpired link token was sent to, without using it up: what a page shows
 * before the visitor chooses to follow the link (issue 25, login CSRF). Null when not valid.
 */
export async function peekLinkTokenAddress(
  auth: AuthRuntime,
  token: string,
  types: readonly OneTimeTokenType[],
): Promise<string | null> {
  const { rows } = await sql<{ relates_to: string }>`
    select relates_to from auth.one_time_tokens
    where token_hash = ${hashToken(token)} and token_type = any(${[...types]}::text[]) and ${consumable}`.execute(auth.db.kysely);
  return rows[0]?.relates_to ?? null;
}
