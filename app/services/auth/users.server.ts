import { sql } from "kysely";
import type { Database } from "#app/db/database.server.ts";

export interface UserRow {
  id: string;
  aud: string;
  role: string;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  phone: string | null;
  phone_confirmed_at: Date | null;
  invited_at: Date | null;
  confirmation_sent_at: Date | null;
  recovery_sent_at: Date | null;
  email_change: string | null;
  email_change_sent_at: Date | null;
  reauthentication_sent_at: Date | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Record<string, unknown>;
  raw_user_meta_data: Record<string, unknown>;
  is_anonymous: boolean;
  banned_until: Date | null;
  created_at: Date;
  updated_at: Date;
}

interface IdentityRow {
  id: string;
  user_id: string;
  provider: string;
  provider_id: string;
  identity_data: Record<string, unknown>;
  last_sign_in_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

interface FactorRow {
  id: string;
  friendly_name: string | null;
  factor_type: string;
  status: string;
  phone: string | null;
  created_at: Date;
  updated_at: Date;
}

type Executor = Parameters<ReturnType<typeof sql>["execute"]>[0];

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserById(db: Executor, id: string): Promise<UserRow | null> {
  const { rows } = await sql<UserRow>`select * from auth.users where id = ${id}`.execute(db);
  return rows[0] ?? null;
}

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | null> {
  const { rows } = await sql<UserRow>`select * from auth.users where lower(email) = ${normalizeEmail(email)}`.execute(db);
  return rows[0] ?? null;
}

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : undefined);

/** The user object of GoTrue's API (what supabase-js exposes as `User`). */
export async function userJson(db: Database | Executor, user: UserRow): Promise<Record<string, unknown>> {
  const executor = "kysely" in db ? db.kysely : db;
  const identities = (
    await sql<IdentityRow>`select * from auth.identities where user_id = ${user.id} order by created_at`.execute(executor)
  ).rows;
  const factors = (
    await sql<FactorRow>`select id, friendly_name, factor_type, status, phone, created_at, updated_at
                         from auth.mfa_factors where user_id = ${user.id} order by created_at`.execute(executor)
  ).rows;
  return {
    id: user.id,
    aud: user.aud,
    role: user.role,
    email: user.email ?? "",
    email_confirmed_at: iso(user.email_confirmed_at),
    phone: user.phone ?? "",
    phone_confirmed_at: iso(user.phone_confirmed_at),
    confirmation_sent_at: iso(user.confirmation_sent_at),
    recovery_sent_at: iso(user.recovery_sent_at),
    email_change_sent_at: iso(user.email_change_sent_at),
    new_email: user.email_change ?? undefined,
    invited_at: iso(user.invited_at),
    confirmed_at: iso(user.email_confirmed_at ?? user.phone_confirmed_at),
    last_sign_in_at: iso(user.last_sign_in_at),
    app_metadata: user.raw_app_meta_data,
    user_metadata: user.raw_user_meta_data,
    identities: identities.map((i) => ({
      identity_id: i.id,
      id: i.provider_id,
      user_id: i.user_id,
      identity_data: i.identity_data,
      provider: i.provider,
      last_sign_in_at: iso(i.last_sign_in_at),
      created_at: iso(i.created_at),
      updated_at: iso(i.updated_at),
      email: (i.identity_data.email as string | undefined) ?? undefined,
    })),
    factors: factors.length
      ? factors.map((f) => ({
          id: f.id,
          friendly_name: f.friendly_name ?? undefined,
          factor_type: f.factor_type,
          status: f.status,
          phone: f.phone ?? undefined,
          created_at: iso(f.created_at),
          updated_at: iso(f.updated_at),
        }))
      : undefined,
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
    is_anonymous: user.is_anonymous,
  };
}
