import type { PgBoss } from "pg-boss";
import type { Database } from "#app/db/database.server.ts";

// The pg-boss instance started for each database (one in the server; tests start their own over
// their own database). Enqueuing looks its database's instance up here.
const bosses = new Map<Database, PgBoss>();

export function runningBoss(db: Database): PgBoss | undefined {
  return bosses.get(db);
}

export function registerBoss(db: Database, boss: PgBoss): void {
  bosses.set(db, boss);
}

export function unregisterBoss(db: Database): void {
  bosses.delete(db);
}

export function allBosses(): Database[] {
  return [...bosses.keys()];
}
