import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { createPgConfig } from "@electric-sql/pglite/node-postgres";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { closeProgressNotifications } from "#app/services/events/progress-notifications.server.ts";
import { privateDir, tightenTree } from "#app/utils/private-files.server.ts";
import { createPglite } from "./pglite.server.ts";
import type { DB } from "./schema.ts";

/**
 * The one handle on the database. `pool` connects as the owner (migrations, jobs);
 * tenant data is only ever read through `withActor` (see actor.server.ts), which drops
 * to the non-superuser `murmur_app` role so row-level security applies.
 */
export interface Database {
  kind: "pglite" | "postgres";
  pool: pg.Pool;
  kysely: Kysely<DB>;
  /** The embedded database itself (kind "pglite"): its LISTEN/NOTIFY is in-process (progress-notifications.server.ts). */
  pglite?: PGlite;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** Server PostgreSQL; when absent the embedded PGlite is used. */
  databaseUrl?: string;
  /** Folder for PGlite's files; "memory://" keeps it in memory. */
  dataDir?: string;
  /** An existing PGlite (tests pass a clone of a migrated base). */
  pglite?: PGlite;
  poolSize?: number;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    pool.on("error", () => {
      // An idle client lost its connection; the pool replaces it on the next checkout.
    });
    const db: Database = {
      kind: "postgres",
      pool,
      kysely: createKysely(pool),
      async close() {
        // Its LISTEN connection lives outside the pool (app/services/events/progress-notifications.server.ts).
        await closeProgressNotifications(db);
        await pool.end();
      },
    };
    return db;
  }
  const pglite = options.pglite ?? (await openPgliteDir(options.dataDir ?? "memory://"));
  const pool = new pg.Pool(createPgConfig(pglite) as unknown as pg.PoolConfig);
  const db: Database = {
    kind: "pglite",
    pool,
    kysely: createKysely(pool),
    pglite,
    async close() {
      await closeProgressNotifications(db);
      await pool.end();
      if (!options.pglite) await pglite.close();
    },
  };
  return db;
}

async function openPgliteDir(dataDir: string): Promise<PGlite> {
  if (dataDir === "memory://") return createPglite();
  const dir = path.resolve(dataDir, "pglite");
  // The data folder and the database's files are the server user's only (issue 25).
  privateDir(path.resolve(dataDir));
  privateDir(dir);
  tightenTree(dir);
  const pglite = await createPglite({ dataDir: dir });
  // Start-up wrote files of its own (initdb, relation caches) with PGlite's modes: tighten them
  // too. Files it creates later carry its modes, but sit in 0700 folders no other user can enter.
  tightenTree(dir);
  return pglite;
}

function createKysely(pool: pg.Pool): Kysely<DB> {
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
}
