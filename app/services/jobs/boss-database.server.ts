import type { Db } from "pg-boss";
import type { Database } from "#app/db/database.server.ts";

/**
 * pg-boss over the app's own pool (owner connection), on both engines: PGlite's node-postgres
 * bridge speaks the same protocol, multi-statement text included (pg-boss unwraps the array of
 * results node-postgres gives for those), so pg-boss needs no second connection. On PGlite the
 * pool has one connection; pg-boss never holds it across a handler.
 */
export function bossDatabase(db: Database): Db {
  return {
    executeSql: (text, values) => db.pool.query(text, values as unknown[] | undefined),
  };
}
