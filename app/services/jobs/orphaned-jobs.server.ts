import { sql } from "kysely";
import type { PgBoss } from "pg-boss";
import type { Database } from "#app/db/database.server.ts";
import type { Logger } from "#app/utils/logger.server.ts";

/**
 * On the embedded database, jobs still `active` when the process starts were running in a process
 * that died (kill -9, a crash, a power cut): only one process can open a PGlite data folder, so no
 * one else can be running them. They are failed as attempts (their retry count still bounds a job
 * that crashes the process every time) and made due at once, instead of waiting for pg-boss's
 * heartbeat supervisor and the retry back-off. Handlers are idempotent (CONVENTIONS "Services and
 * data"): a rerun adds no second transcript or note. On a server PostgreSQL other instances may be
 * running them, so there the heartbeat (30 s) decides.
 */
export async function requeueOrphanedJobs(
  boss: PgBoss,
  db: Database,
  queues: readonly string[],
  logger: Logger,
): Promise<number> {
  if (db.kind !== "pglite") return 0;
  const { rows } = await sql<{ id: string; name: string }>`
    select id, name from pgboss.job where state = 'active' and name = any(${[...queues]})`.execute(db.kysely);
  for (const job of rows) {
    await boss.fail(job.name, job.id, { reason: "the process running this job ended" });
    await boss.update(job.name, undefined, { id: job.id, startAfter: new Date() });
  }
  if (rows.length) logger.warn({ jobs: rows }, "jobs left running by an ended process are back in their queue");
  return rows.length;
}
