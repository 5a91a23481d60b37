import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Database } from "./database.server.ts";

// Any fixed number shared by every instance: two servers starting together queue on it.
const MIGRATION_LOCK_KEY = 4_242_001;

export interface Migration {
  name: string;
  sql: string;
}

/** Migrations ship as plain SQL files; the same files run on PGlite and on PostgreSQL. */
export function readMigrations(dir = defaultMigrationsDir()): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((name) => ({ name, sql: fs.readFileSync(path.join(dir, name), "utf8") }));
}

function defaultMigrationsDir(): string {
  const candidates = [
    process.env.MURMUR_MIGRATIONS_DIR,
    path.resolve(process.cwd(), "app/db/migrations"),
    path.resolve(path.dirname(fileURLToPath(import.meta.url)), "migrations"),
  ];
  const found = candidates.find((d) => d && fs.existsSync(d));
  if (!found) throw new Error("migrations folder not found");
  return found;
}

/** Applies pending migrations, each in its own transaction, under an advisory lock. */
export async function migrate(db: Database, migrations = readMigrations()): Promise<string[]> {
  const client = await db.pool.connect();
  const applied: string[] = [];
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await client.query(
      `create table if not exists public.schema_migrations (
         name text primary key,
         applied_at timestamptz not null default now()
       )`,
    );
    const { rows } = await client.query<{ name: string }>("select name from public.schema_migrations");
    const done = new Set(rows.map((r) => r.name));
    for (const m of migrations) {
      if (done.has(m.name)) continue;
      await client.query("begin");
      try {
        await client.query(m.sql);
        await client.query("insert into public.schema_migrations (name) values ($1)", [m.name]);
        await client.query("commit");
        applied.push(m.name);
      } catch (error) {
        await client.query("rollback");
        throw new Error(`migration ${m.name} failed: ${(error as Error).message}`, { cause: error });
      }
    }
  } finally {
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
    client.release();
  }
  return applied;
}
