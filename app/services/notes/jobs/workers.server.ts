import type { PgBoss } from "pg-boss";
import type { Database } from "#app/db/database.server.ts";
import { ensureQueue } from "#app/services/jobs/ensure-queue.server.ts";
import { DEAD_LETTER_POLLING_SECONDS } from "#app/services/jobs/queues.ts";
import { RunningJobs } from "#app/services/jobs/running-jobs.server.ts";
import type { Logger } from "#app/utils/logger.server.ts";
import { enqueueGenerateNote } from "./enqueue.server.ts";
import { handleDeadGenerateNote, handleGenerateNote, type NoteEnginePort } from "./generate-note.server.ts";
import {
  GENERATE_NOTE_DEAD_QUEUE,
  GENERATE_NOTE_DEAD_QUEUE_OPTIONS,
  GENERATE_NOTE_QUEUE,
  GENERATE_NOTE_QUEUE_OPTIONS,
  type GenerateNotePayload,
} from "./queues.ts";

export interface NoteWorkersOptions {
  /** The note engine. Without it this process queues note jobs but runs none (another may). */
  engine?: NoteEnginePort;
  pollingIntervalSeconds?: number;
  concurrency?: number;
  /** How often to re-queue notes left `generating` without a job (default every minute; 0 = only at start). */
  sweepIntervalMs?: number;
  /** Only notes at least this old are swept (default a minute), so a request's own enqueue is not raced. */
  sweepMinAgeMs?: number;
  /** Lists the running jobs so a stop can hand unfinished ones straight back (jobs.server.ts). */
  running?: RunningJobs;
}

/**
 * Called by startJobs once pg-boss runs: creates the `generate-note` queues, starts the workers
 * when an engine is given, and sweeps notes an earlier process left `generating` (a crash between
 * the request's commit and its enqueue). The sweep's timer stops with pg-boss.
 */
export async function startNoteWorkers(
  boss: PgBoss,
  runtime: { db: Database; logger: Logger },
  options: NoteWorkersOptions = {},
): Promise<{ sweep(): Promise<number> }> {
  const { db, logger } = runtime;
  await ensureQueue(boss, GENERATE_NOTE_DEAD_QUEUE, GENERATE_NOTE_DEAD_QUEUE_OPTIONS);
  await ensureQueue(boss, GENERATE_NOTE_QUEUE, GENERATE_NOTE_QUEUE_OPTIONS);
  const { engine } = options;
  const running = options.running ?? new RunningJobs();
  if (engine) {
    const work = { includeMetadata: true, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1 } as const;
    await boss.work<GenerateNotePayload>(
      GENERATE_NOTE_QUEUE,
      { ...work, localConcurrency: options.concurrency ?? 1 },
      running.track(GENERATE_NOTE_QUEUE, async ([job]) => {
        if (!job) return;
        const outcome = await handleGenerateNote(job, { db, engine, logger });
        logger.info({ jobId: job.id, noteId: job.data.noteId, outcome }, "generate-note job done");
        return { outcome };
      }),
    );
    await boss.work<GenerateNotePayload>(
      GENERATE_NOTE_DEAD_QUEUE,
      { ...work, pollingIntervalSeconds: options.pollingIntervalSeconds ?? DEAD_LETTER_POLLING_SECONDS },
      running.track(GENERATE_NOTE_DEAD_QUEUE, async ([job]) => {
        if (job) await handleDeadGenerateNote(job, { db });
      }),
    );
  } else {
    logger.warn("no note engine connected: note jobs are queued but not run by this process");
  }

  const minAgeMs = options.sweepMinAgeMs ?? 60_000;
  const sweep = async (): Promise<number> => {
    const waiting = await db.kysely
      .selectFrom("notes")
      .select(["org_id", "id"])
      .where("status", "=", "generating")
      .where("updated_at", "<=", new Date(Date.now() - minAgeMs))
      .orderBy("updated_at")
      .limit(1000)
      .execute();
    let queued = 0;
    for (const n of waiting) {
      const { jobId } = await enqueueGenerateNote(db, { orgId: n.org_id, noteId: n.id });
      if (jobId) queued += 1;
    }
    return queued;
  };
  const swept = await sweep();
  if (swept) logger.info({ queued: swept }, "re-queued notes waiting for generation");
  const interval = options.sweepIntervalMs ?? 60_000;
  if (interval > 0) {
    const timer = setInterval(() => {
      sweep().catch((err: unknown) => logger.error({ err }, "note sweep failed"));
    }, interval);
    timer.unref();
    boss.once("stopped", () => clearInterval(timer));
  }
  return { sweep };
}
