import { type RawBuilder, sql } from "kysely";
import { adminErrors, errors } from "../errors.server.ts";
import { isUniqueViolation } from "../pg-errors.server.ts";
import { findUserByEmail, type UserRow } from "../users.server.ts";

type Executor = Parameters<ReturnType<typeof sql>["execute"]>[0];
type Metadata = Record<string, unknown>;

export interface NewUser {
  /** Already validated and lower-cased. */
  email: string | null;
  /** Already normalized (digits only). */
  phone: string | null;
  /**
   * bcrypt hash of a password already checked against the policy (hash it before opening the
   * transaction: on PGlite a transaction holds the only connection); null: no password.
   */
  passwordHash: string | null;
  emailConfirmed: boolean;
  phoneConfirmed: boolean;
  userMetadata: Metadata;
  appMetadata: Metadata | null;
  role: string | null;
  bannedUntil: Date | null;
}

/** GoTrue's metadata update: keys are merged in, a null value removes the key. */
export function mergeMetadata(base: Metadata, patch: Metadata | null | undefined): Metadata {
  const merged: Metadata = { ...base };
  for (const [key, value] of Object.entries(patch ?? {})) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/** A user as GoTrue's admin API creates one: with an identity for each of email and phone. */
export async function insertUser(trx: Executor, input: NewUser): Promise<UserRow> {
  await assertContactFree(trx, { email: input.email, phone: input.phone });
  const providers = [...(input.email ? ["email"] : []), ...(input.phone ? ["phone"] : [])];
  const appMetadata = mergeMetadata({ provider: providers[0], providers }, input.appMetadata);
  let user: UserRow;
  try {
    const { rows } = await sql<UserRow>`
      insert into auth.users (email, phone, encrypted_password, email_confirmed_at, phone_confirmed_at,
                              raw_app_meta_data, raw_user_meta_data, role, banned_until)
      values (${input.email}, ${input.phone}, ${input.passwordHash},
              ${input.email && input.emailConfirmed ? sql`now()` : null},
              ${input.phone && input.phoneConfirmed ? sql`now()` : null},
              ${JSON.stringify(appMetadata)}::jsonb, ${JSON.stringify(input.userMetadata)}::jsonb,
              ${input.role ?? "authenticated"}, ${input.bannedUntil})
      returning *`.execute(trx);
    user = rows[0] as UserRow;
  } catch (error) {
    throw contactConflict(error) ?? error;
  }
  if (user.email) await upsertIdentity(trx, user, "email");
  if (user.phone) await upsertIdentity(trx, user, "phone");
  return user;
}

export interface UserChanges {
  email?: string;
  phone?: string;
  /** Hashed beforehand, as for NewUser. */
  passwordHash?: string;
  emailConfirm?: boolean;
  phoneConfirm?: boolean;
  role?: string;
  userMetadata?: Metadata | null;
  appMetadata?: Metadata | null;
  /** undefined leaves the ban as is; null lifts it. */
  bannedUntil?: Date | null;
}

/** Applies an admin's changes in one statement, keeping the email and phone identities in step. */
export async function updateUser(trx: Executor, user: UserRow, changes: UserChanges): Promise<UserRow> {
  await assertContactFree(trx, { email: changes.email ?? null, phone: changes.phone ?? null }, user.id);
  const sets: RawBuilder<unknown>[] = [sql`updated_at = now()`];
  if (changes.email !== undefined) sets.push(sql`email = ${changes.email}`);
  if (changes.phone !== undefined) sets.push(sql`phone = ${changes.phone}`);
  if (changes.passwordHash !== undefined) sets.push(sql`encrypted_password = ${changes.passwordHash}`);
  if (changes.emailConfirm) sets.push(sql`email_confirmed_at = coalesce(email_confirmed_at, now())`);
  if (changes.phoneConfirm) sets.push(sql`phone_confirmed_at = coalesce(phone_confirmed_at, now())`);
  if (changes.role) sets.push(sql`role = ${changes.role}`);
  if (changes.userMetadata) {
    sets.push(sql`raw_user_meta_data = ${JSON.stringify(mergeMetadata(user.raw_user_meta_data, changes.userMetadata))}::jsonb`);
  }
  if (changes.appMetadata) {
    sets.push(sql`raw_app_meta_data = ${JSON.stringify(mergeMetadata(user.raw_app_meta_data, changes.appMetadata))}::jsonb`);
  }
  if (changes.bannedUntil !== undefined) sets.push(sql`banned_until = ${changes.bannedUntil}`);
  let updated: UserRow;
  try {
    const { rows } = await sql<UserRow>`update auth.users set ${sql.join(sets)} where id = ${user.id} returning *`.execute(trx);
    updated = rows[0] as UserRow;
  } catch (error) {
    throw contactConflict(error) ?? error;
  }
  if (changes.email !== undefined) await upsertIdentity(trx, updated, "email");
  if (changes.phone !== undefined) await upsertIdentity(trx, updated, "phone");
  return updated;
}

async function assertContactFree(
  db: Executor,
  contact: { email: string | null; phone: string | null },
  exceptUserId?: string,
): Promise<void> {
  if (contact.email) {
    const owner = await findUserByEmail(db, contact.email);
    if (owner && owner.id !== exceptUserId) throw errors.emailExists();
  }
  if (contact.phone) {
    const { rows } = await sql<{ id: string }>`select id from auth.users where phone = ${contact.phone}`.execute(db);
    if (rows[0] && rows[0].id !== exceptUserId) throw adminErrors.phoneExists();
  }
}

/** A concurrent request that took the same email or phone after the check above. */
function contactConflict(error: unknown) {
  if (isUniqueViolation(error, "users_email_key")) return errors.emailExists();
  if (isUniqueViolation(error, "users_phone_key")) return adminErrors.phoneExists();
  return null;
}

/** GoTrue keys email and phone identities by the user's id, with the address in identity_data. */
async function upsertIdentity(db: Executor, user: UserRow, provider: "email" | "phone"): Promise<void> {
  const data =
    provider === "email"
      ? { sub: user.id, email: user.email, email_verified: user.email_confirmed_at !== null, phone_verified: false }
      : { sub: user.id, phone: user.phone, email_verified: false, phone_verified: user.phone_confirmed_at !== null };
  await sql`
    insert into auth.identities (user_id, provider, provider_id, identity_data, last_sign_in_at)
    values (${user.id}, ${provider}, ${user.id}, ${JSON.stringify(data)}::jsonb, now())
    on conflict (provider, provider_id)
    do update set identity_data = auth.identities.identity_data || excluded.identity_data, updated_at = now()`.execute(db);
}
