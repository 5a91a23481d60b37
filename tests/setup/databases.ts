import fs from "node:fs";
import type { PGlite } from "@electric-sql/pglite";
import { describe, inject } from "vitest";
import { type Database, openDatabase } from "#app/db/database.server.ts";
import { migrate } from "#app/db/migrate.server.ts";
import { createPglite } from "#app/db/pglite.server.ts";

let basePromise: Promise<PGlite> | null = null;

/**
 * A migrated PGlite, loaded once per test file from the dump the global setup made
 * (tests/setup/global-migrated-pglite.ts); tests get clones of it. Without the dump (a file run
 * outside the Vitest config), it migrates a fresh one.
 */
function migratedBase(): Promise<PGlite> {
  basePromise ??= (async () => {
    const dump = inject("migratedPgliteDump");
    if (dump && fs.existsSync(dump)) {
      return createPglite({ loadDataDir: new Blob([fs.readFileSync(dump)]) });
    }
    const base = await createPglite();
    const db = await openDatabase({ pglite: base });
    await migrate(db);
    await db.close();
    return base;
  })();
  return basePromise;
}

/** A fresh embedded database with every migration applied, isolated from other tests. */
export async function createPgliteTestDatabase(): Promise<Database> {
  const clone = (await (await migratedBase()).clone()) as PGlite;
  const db = await openDatabase({ pglite: clone });
  const close = db.close;
  return {
    ...db,
    close: async () => {
      await close();
      await clone.close();
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
  const url = process.env.DATABASE_URL;
  if (url) targets.push({ name: "postgres", open: () => openPostgresTestDatabase(url) });
  return targets;
}

/** Runs the same suite on every available database. */
export function describeEachDatabase(title: string, suite: (target: DatabaseTarget) => void): void {
  for (const target of databaseTargets()) describe(`${title} [${target.name}]`, () => suite(target));
}
