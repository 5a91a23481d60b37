import fs from "node:fs";
import type { PGlite } from "@electric-sql/pglite";
import { describe, inject } from "vitest";
import { type Database, openDatabase } from "#app/db/database.server.ts";
import { migrate } from "#app/db/migrate.server.ts";
import { createPglite } from "#app/db/pglite.server.ts";

let dumpBlob: Blob | null | undefined;
let basePromise: Promise<PGlite> | null = null;

/**
 * The dump of a migrated PGlite the global setup made once per run
 * (tests/setup/global-migrated-pglite.ts), read once per test file; null for a file run outside
 * the Vitest config.
 */
function migratedDump(): Blob | null {
  if (dumpBlob === undefined) {
    const file = inject("migratedPgliteDump");
    dumpBlob = file && fs.existsSync(file) ? new Blob([fs.readFileSync(file)]) : null;
  }
  return dumpBlob;
}

/** Without the dump: one migrated PGlite per file, cloned for each database. */
function migratedBase(): Promise<PGlite> {
  basePromise ??= (async () => {
    const base = await createPglite();
    const db = await openDatabase({ pglite: base });
    await migrate(db);
    await db.close();
    return base;
  })();
  return basePromise;
}

/**
 * A fresh embedded database with every migration applied, isolated from other tests. Each one is
 * loaded straight from the dump: PGlite's clone() is itself a dump plus a load, so loading a base
 * first and cloning it cost two loads and a dump for every file's first database (seconds each on a
 * loaded 2-core machine) where one load gives the same database.
 */
export async function createPgliteTestDatabase(): Promise<Database> {
  const dump = migratedDump();
  const pglite = dump ? await createPglite({ loadDataDir: dump }) : ((await (await migratedBase()).clone()) as PGlite);
  const db = await openDatabase({ pglite });
  const close = db.close;
  return {
    ...db,
    close: async () => {
      await close();
      await pglite.close();
    },
  };
}

/** The server PostgreSQL named by DATABASE_URL, migrated. Tests there must use unique names. */
export async function openPostgresTestDatabase(url: string): Promise<Database> {
  const db = await openDatabase({ databaseUrl: url, poolSize: 4 });
  await migrate(db);
  return db;
}

export interface DatabaseTarget {
  name: "pglite" | "postgres";
  open(): Promise<Database>;
}

/** PGlite always; server PostgreSQL too when DATABASE_URL is set (CI creates a fresh one). */
export function databaseTargets(): DatabaseTarget[] {
  const targets: DatabaseTarget[] = [{ name: "pglite", open: createPgliteTestDatabase }];
  const url = postgresTestUrl();
  if (url) targets.push({ name: "postgres", open: () => openPostgresTestDatabase(url) });
  return targets;
}

/**
 * This worker's own copy of DATABASE_URL's database (tests/setup/global-postgres-workers.ts), so
 * files running at the same time never share rows or pg-boss queues; DATABASE_URL itself outside
 * the Vitest config.
 */
export function postgresTestUrl(): string | undefined {
  const url = process.env.DATABASE_URL;
  if (!url) return undefined;
  const perWorker = inject("postgresWorkerUrls");
  const poolId = Number(process.env.VITEST_POOL_ID ?? 1);
  return perWorker?.[poolId - 1] ?? url;
}

/** Runs the same suite on every available database. */
export function describeEachDatabase(title: string, suite: (target: DatabaseTarget) => void): void {
  for (const target of databaseTargets()) describe(`${title} [${target.name}]`, () => suite(target));
}
