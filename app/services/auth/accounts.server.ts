import { sql } from "kysely";
import type { AuthRuntime } from "./auth-runtime.server.ts";
import { errors } from "./errors.server.ts";
import { isUniqueViolation } from "./pg-errors.server.ts";
import { findUserById, normalizeEmail, type UserRow } from "./users.server.ts";

export function isBanned(user: UserRow): boolean {
  return user.banned_until !== null && new Date(user.banned_until).getTime() > Date.now();
}

export function isEmailConfirmed(user: UserRow): boolean {
  return user.email_confirmed_at !== null;
}

/**
 * A new email account with its `email` identity, as GoTrue's sign-up creates it. Returns null
 * when the address was taken meanwhile (a concurrent sign-up), which callers treat as "exists".
 */
export async function createEmailUser(
  auth: Pick<AuthRuntime, "db">,
  input: { email: string; passwordHash: string | null; data: Record<string, unknown>; confirmed: boolean },
): Promise<UserRow | null> {
  const db = auth.db.kysely;
  const email = normalizeEmail(input.email);
  const appMetadata = { provider: "email", providers: ["email"] };
  const { rows } = await sql<UserRow>`
    insert into auth.users (email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data)
    values (${email}, ${input.passwordHash}, ${input.confirmed ? sql`now()` : null},
            ${JSON.stringify(appMetadata)}::jsonb, ${JSON.stringify(input.data)}::jsonb)
    on conflict do nothing
    returning *`.execute(db);
  const user = rows[0];
  if (!user) return null;
  const identityData = { sub: user.id, email, email_verified: input.confirmed, phone_verified: false };
  await sql`insert into auth.identities (user_id, provider, provider_id, identity_data)
            values (${user.id}, 'email', ${user.id}, ${JSON.stringify(identityData)}::jsonb)`.execute(db);
  return user;
}

/** Marks the email verified on the account and on its email identity. */
export async function confirmEmail(auth: AuthRuntime, userId: string): Promise<UserRow> {
  const db = auth.db.kysely;
  await sql`update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
            where id = ${userId}`.execute(db);
  await sql`update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb, updated_at = now()
            where user_id = ${userId} and provider = 'email'`.execute(db);
  return requireUser(auth, userId);
}

type SentColumn = "confirmation_sent_at" | "recovery_sent_at" | "email_change_sent_at" | "reauthentication_sent_at";

export async function markSent(auth: AuthRuntime, userId: string, column: SentColumn): Promise<void> {
  await sql`update auth.users set ${sql.ref(column)} = now() where id = ${userId}`.execute(auth.db.kysely);
}

/** Records the address a user asked to move to; it applies only once a link sent there is opened. */
export async function setPendingEmail(auth: AuthRuntime, userId: string, email: string): Promise<void> {
  await sql`update auth.users set email_change = ${normalizeEmail(email)}, updated_at = now() where id = ${userId}`.execute(
    auth.db.kysely,
  );
}

/**
 * Applies a confirmed email change. Fails with email_exists if another account took the address
 * after the change was requested; does nothing if the pending change is no longer `newEmail`.
 */
export async function applyEmailChange(auth: AuthRuntime, userId: string, newEmail: string): Promise<UserRow> {
  const db = auth.db.kysely;
  const email = normalizeEmail(newEmail);
  try {
    await sql`update auth.users
              set email = email_change, email_change = null, email_change_sent_at = null,
                  email_confirmed_at = now(), updated_at = now()
              where id = ${userId} and email_change = ${email}`.execute(db);
  } catch (error) {
    if (isUniqueViolation(error)) throw errors.emailExists();
    throw error;
  }
  const patch = JSON.stringify({ email, email_verified: true });
  const { rows } = await sql`update auth.identities set identity_data = identity_data || ${patch}::jsonb, updated_at = now()
                             where user_id = ${userId} and provider = 'email' returning id`.execute(db);
  if (rows.length === 0) {
    const data = JSON.stringify({ sub: userId, email, email_verified: true, phone_verified: false });
    await sql`insert into auth.identities (user_id, provider, provider_id, identity_data)
              values (${userId}, 'email', ${userId}, ${data}::jsonb)`.execute(db);
  }
  return requireUser(auth, userId);
}

/** Merges `data` into user_metadata, as GoTrue's UpdateUserMetaData does (a null value removes a key). */
export async function mergeUserMetadata(auth: AuthRuntime, userId: string, data: Record<string, unknown>): Promise<void> {
  const removed = Object.keys(data).filter((k) => data[k] === null);
  const kept = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== null));
  await sql`update auth.users
            set raw_user_meta_data = (raw_user_meta_data || ${JSON.stringify(kept)}::jsonb) - ${removed}::text[],
                updated_at = now()
            where id = ${userId}`.execute(auth.db.kysely);
}

/** `null` removes the password (the account then signs in by link or code until one is set). */
export async function setPasswordHash(auth: AuthRuntime, userId: string, passwordHash: string | null): Promise<void> {
  await sql`update auth.users set encrypted_password = ${passwordHash}, reauthentication_sent_at = null, updated_at = now()
            where id = ${userId}`.execute(auth.db.kysely);
}

export async function requireUser(auth: AuthRuntime, userId: string): Promise<UserRow> {
  const user = await findUserById(auth.db.kysely, userId);
  if (!user) throw errors.userNotFound();
  return user;
}
