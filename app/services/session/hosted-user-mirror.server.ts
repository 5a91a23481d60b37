import { sql } from "kysely";
import type { Database } from "#app/db/database.server.ts";

// Users this process has already mirrored; bounded so a long-running server does not grow forever.
const mirrored = new Set<string>();
const MAX_REMEMBERED = 10_000;

/**
 * With SUPABASE_URL set, accounts live at the hosted auth server while organisations and their
 * memberships live in our database, whose tables reference auth.users. A user seen for the first
 * time gets a password-less row there (id, email, profile) so memberships can point at them. When
 * DATABASE_URL is the hosted project's own database the row already exists and nothing changes.
 */
export async function mirrorHostedUser(
  db: Database,
  user: { id: string; email?: string | null; user_metadata?: Record<string, unknown> | null },
): Promise<void> {
  if (mirrored.has(user.id)) return;
  await sql`
    insert into auth.users (id, email, email_confirmed_at, raw_user_meta_data)
    values (${user.id}, ${user.email ?? null}, now(), ${JSON.stringify(user.user_metadata ?? {})}::jsonb)
    on conflict do nothing`.execute(db.kysely);
  if (mirrored.size >= MAX_REMEMBERED) mirrored.clear();
  mirrored.add(user.id);
}
