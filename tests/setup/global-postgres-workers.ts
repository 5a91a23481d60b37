import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "#app/db/database.server.ts";
import { migrate } from "#app/db/migrate.server.ts";

// Vitest runs several test files at once (vitest.config.ts maxWorkers). On one shared PostgreSQL
// database those files would see each other's rows, and worse, each other's pg-boss jobs (one
// `pgboss` schema, one queue per name): a file's workers would take another file's transcription.
// So every worker gets a database of its own, copied from DATABASE_URL's database once migrated
// (CREATE DATABASE … TEMPLATE: a file copy, no migrations per worker). A worker runs one file at a
// time, so files on the same database never overlap — as on the single database before.
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const url = process.env.DATABASE_URL;
  if (!url) return undefined;
  const base = new URL(url);
  const baseName = decodeURIComponent(base.pathname.slice(1));
  const workers = Math.max(1, project.globalConfig.maxWorkers);

  const db = await openDatabase({ databaseUrl: url, poolSize: 1 });
  try {
    await migrate(db);
  } finally {
    await db.close();
  }

  const names = Array.from({ length: workers }, (_, i) => `${baseName}_w${i + 1}`);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    for (const name of names) {
      await admin.query(`drop database if exists ${quoteIdent(name)} with (force)`);
      // PostgreSQL refuses a template that *other* sessions are connected to; this one may be.
      await admin.query(`create database ${quoteIdent(name)} template ${quoteIdent(baseName)}`).catch(async (error) => {
        // Someone else is connected to the base (a developer's psql): an empty one, migrated.
        if ((error as { code?: string }).code !== "55006") throw error;
        await admin.query(`create database ${quoteIdent(name)}`);
        const copy = await openDatabase({ databaseUrl: urlFor(base, name), poolSize: 1 });
        await migrate(copy).finally(() => copy.close());
      });
    }
  } finally {
    await admin.end();
  }
  project.provide(
    "postgresWorkerUrls",
    names.map((name) => urlFor(base, name)),
  );

  return async () => {
    const cleanup = new pg.Client({ connectionString: url });
    await cleanup.connect();
    try {
      for (const name of names) await cleanup.query(`drop database if exists ${quoteIdent(name)} with (force)`);
    } finally {
      await cleanup.end();
    }
  };
}

function urlFor(base: URL, name: string): string {
  const u = new URL(base);
  u.pathname = `/${encodeURIComponent(name)}`;
  return u.toString();
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** One migrated PostgreSQL database per Vitest worker (index VITEST_POOL_ID - 1). */
    postgresWorkerUrls: string[];
  }
}
