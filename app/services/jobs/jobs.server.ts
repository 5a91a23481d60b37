import { sql } from "kysely";
import { PgBoss } from "pg-boss";
import type { Database } from "#app/db/database.server.ts";
import type { NoteEnginePort } from "#app/services/notes/jobs/generate-note.server.ts";
import {
  GENERATE_NOTE_DEAD_QUEUE,
  GENERATE_NOTE_DEAD_QUEUE_OPTIONS,
  GENERATE_NOTE_QUEUE,
  GENERATE_NOTE_QUEUE_OPTIONS,
} from "#app/services/notes/jobs/queues.ts";
import { startNoteWorkers } from "#app/services/notes/jobs/workers.server.ts";
import type { EmbeddingsClient } from "#app/services/rag/embeddings/client.server.ts";
import { RAG_EMBED_QUEUE, RAG_EMBED_QUEUE_OPTIONS, startEmbedWorkers } from "#app/services/rag/embeddings/jobs.server.ts";
import {
  REFRESH_VOCABULARY_QUEUE,
  REFRESH_VOCABULARY_QUEUE_OPTIONS,
  startVocabularyWorker,
} from "#app/services/speech/org-vocab/jobs.server.ts";
import type { BlobStore } from "#app/services/storage/blob-store.ts";
import { blobStore } from "#app/services/storage/storage.server.ts";
import { purgeExpiredAudio } from "#app/services/visits/purge-audio.server.ts";
import type { Logger } from "#app/utils/logger.server.ts";
import { bossDatabase } from "./boss-database.server.ts";
import { enqueueTranscribeVisit } from "./enqueue.server.ts";
import { ensureQueue } from "./ensure-queue.server.ts";
import { requeueOrphanedJobs } from "./orphaned-jobs.server.ts";
import {
  DEAD_LETTER_POLLING_SECONDS,
  TRANSCRIBE_LIVE_QUEUE,
  TRANSCRIBE_LIVE_QUEUE_OPTIONS,
  TRANSCRIBE_VISIT_DEAD_QUEUE,
  TRANSCRIBE_VISIT_DEAD_QUEUE_OPTIONS,
  TRANSCRIBE_VISIT_QUEUE,
  TRANSCRIBE_VISIT_QUEUE_OPTIONS,
  type TranscribeVisitPayload,
} from "./queues.ts";
import { registerBoss, unregisterBoss } from "./registry.server.ts";
import { RunningJobs } from "./running-jobs.server.ts";
import { handleTranscribeLive, type LiveTranscribePort } from "./transcribe-live.server.ts";
import { handleDeadTranscribeVisit, handleTranscribeVisit, type TranscribePort } from "./transcribe-visit.server.ts";

/** What startJobs needs of the runtime (app/runtime/runtime.server.ts's Runtime has it). */
export interface JobsRuntime {
  env: object;
  db: Database;
  logger: Logger;
}

export interface StartJobsOptions {
  /**
   * False for a web-only process (MURMUR_ROLE=web, ADR 0038): the queues exist so requests can
   * enqueue, but this process claims no job, runs no sweep or purge and leaves pg-boss's
   * supervision (expiry, dead workers' jobs) to the worker processes. Default true.
   */
  workers?: boolean;
  /** How often pg-boss fails the jobs of dead processes (lapsed heartbeat) back to their queue (JOBS_SUPERVISE_SECONDS). */
  superviseIntervalSeconds?: number;
  /** The speech engine. Without it this process queues jobs but runs none (another may). */
  transcribe?: TranscribePort;
  /** The note engine (issue 6). Without it this process queues note jobs but runs none. */
  generateNote?: NoteEnginePort;
  /** Decodes a recording's settled windows while it is still recording; without it, all decoding waits for Stop. */
  transcribeLive?: LiveTranscribePort;
  store?: BlobStore;
  /** Ask Murmur's embeddings server (EMBEDDINGS_*, ADR 0020). Without it no passage is embedded here. */
  embeddings?: EmbeddingsClient | null;
  /** Transcriptions run at once in this process. */
  concurrency?: number;
  pollingIntervalSeconds?: number;
  /** How often to look for uploaded visits without a job (default every minute; 0 = only at start). */
  sweepIntervalMs?: number;
  /**
   * Only visits uploaded at least this long ago are swept (default a minute): younger ones are
   * being enqueued by their own request, and a sweep must not race it.
   */
  sweepMinAgeMs?: number;
  /**
   * How often to delete audio past its organisation's retention (default hourly; 0 = never from
   * this process). A timer rather than pg-boss's scheduler, which is off (`schedule: false`): the
   * purge is idempotent, so two processes running it at once only repeat a no-op.
   */
  purgeIntervalMs?: number;
}

export interface JobsHandle {
  boss: PgBoss;
  /** Enqueues every visit whose audio is uploaded but not yet being transcribed; returns how many. */
  sweep(): Promise<number>;
  /** Deletes audio past its organisation's retention now; returns how many visits were purged. */
  purge(now?: Date): Promise<number>;
  /**
   * Stops taking jobs and lets running ones finish for `graceMs` (default 5 s) at most, or until
   * `signal` aborts (a shutdown in a hurry); whatever still runs then is handed back to its queue,
   * runnable at once by the next process, and aborted. Safe to call again: every call waits for
   * the same stop.
   */
  stop(options?: StopJobsOptions): Promise<void>;
}

export interface StopJobsOptions {
  graceMs?: number;
  signal?: AbortSignal;
}

/** Every queue this process may work on, so a stop can stop taking jobs from each. */
const WORKED_QUEUES = [
  TRANSCRIBE_VISIT_QUEUE,
  TRANSCRIBE_VISIT_DEAD_QUEUE,
  TRANSCRIBE_LIVE_QUEUE,
  GENERATE_NOTE_QUEUE,
  GENERATE_NOTE_DEAD_QUEUE,
  RAG_EMBED_QUEUE,
  REFRESH_VOCABULARY_QUEUE,
];

const handles = new Map<Database, JobsHandle>();
/** Stops under way, so stopJobs() waits for one that started elsewhere (a shutdown) before the database closes. */
const stopping = new Map<Database, Promise<void>>();
/** Advisory lock key for installing pg-boss's schema (any constant distinct from the migrations' lock). */
const JOBS_INSTALL_LOCK = 7_242_011;

/**
 * Starts pg-boss on the runtime's database (its schema `pgboss` is created or migrated on first
 * start), creates the queues, starts the workers when a transcriber is given, and re-queues
 * visits an earlier process left `uploaded` (a crash between an upload's commit and its enqueue).
 */
export async function startJobs(runtime: JobsRuntime, options: StartJobsOptions = {}): Promise<JobsHandle> {
  const existing = handles.get(runtime.db);
  if (existing) return existing;
  const { db, logger } = runtime;
  const runsJobs = options.workers ?? true;
  const boss = new PgBoss({
    db: bossDatabase(db),
    backend: db.kind === "pglite" ? "pglite" : "postgres",
    schedule: false,
    supervise: runsJobs,
    // The heartbeat check runs in the monitor pass, so both intervals decide how soon a job a
    // killed worker held is retried elsewhere.
    superviseIntervalSeconds: options.superviseIntervalSeconds ?? 60,
    monitorIntervalSeconds: options.superviseIntervalSeconds ?? 60,
  });
  boss.on("error", (err) => logger.error({ err }, "job queue error"));
  // Replicas starting together would race pg-boss's own install (a duplicate "pgboss" schema):
  // on a server PostgreSQL one instance at a time installs or migrates it, under a session
  // advisory lock. An embedded PGlite belongs to one process, so there is nobody to race.
  if (db.kind === "postgres") {
    await db.kysely.connection().execute(async (conn) => {
      await sql`select pg_advisory_lock(${JOBS_INSTALL_LOCK})`.execute(conn);
      try {
        await boss.start();
      } finally {
        await sql`select pg_advisory_unlock(${JOBS_INSTALL_LOCK})`.execute(conn);
      }
    });
  } else {
    await boss.start();
  }
  await ensureQueue(boss, TRANSCRIBE_VISIT_DEAD_QUEUE, TRANSCRIBE_VISIT_DEAD_QUEUE_OPTIONS);
  await ensureQueue(boss, TRANSCRIBE_VISIT_QUEUE, TRANSCRIBE_VISIT_QUEUE_OPTIONS);
  await ensureQueue(boss, TRANSCRIBE_LIVE_QUEUE, TRANSCRIBE_LIVE_QUEUE_OPTIONS);
  if (!runsJobs) return startEnqueueOnly(boss, db, logger);
  registerBoss(db, boss);
  // Before any worker starts: what a killed process left `active` runs again now (PGlite only).
  await requeueOrphanedJobs(boss, db, WORKED_QUEUES, logger);

  const store = options.store ?? blobStore(runtime.env);
  const running = new RunningJobs();
  const transcribe = options.transcribe;
  if (transcribe) {
    const work = { includeMetadata: true, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 } as const;
    await boss.work<TranscribeVisitPayload>(
      TRANSCRIBE_VISIT_QUEUE,
      { ...work, localConcurrency: options.concurrency ?? 1 },
      running.track(TRANSCRIBE_VISIT_QUEUE, async ([job]) => {
        if (!job) return;
        const outcome = await handleTranscribeVisit(job, { db, store, transcribe, logger });
        logger.info({ jobId: job.id, visitId: job.data.visitId, outcome }, "transcribe-visit job done");
        return { outcome };
      }),
    );
    await boss.work<TranscribeVisitPayload>(
      TRANSCRIBE_VISIT_DEAD_QUEUE,
      { ...work, pollingIntervalSeconds: options.pollingIntervalSeconds ?? DEAD_LETTER_POLLING_SECONDS },
      running.track(TRANSCRIBE_VISIT_DEAD_QUEUE, async ([job]) => {
        if (job) await handleDeadTranscribeVisit(job, { db });
      }),
    );
  } else {
    logger.warn("no speech engine connected: transcription jobs are queued but not run by this process");
  }
  const transcribeLive = options.transcribeLive;
  if (transcribeLive) {
    await boss.work<TranscribeVisitPayload>(
      TRANSCRIBE_LIVE_QUEUE,
      { includeMetadata: true, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2, localConcurrency: 1 },
      running.track(TRANSCRIBE_LIVE_QUEUE, async ([job]) => {
        if (!job) return;
        return { outcome: await handleTranscribeLive(job, { db, store, transcribeLive, logger }) };
      }),
    );
  }

  await startNoteWorkers(boss, runtime, {
    engine: options.generateNote,
    pollingIntervalSeconds: options.pollingIntervalSeconds,
    sweepIntervalMs: options.sweepIntervalMs,
    sweepMinAgeMs: options.sweepMinAgeMs,
    running,
  });
  // ADR 0032: organisations' speech vocabularies, refreshed after notes are signed or templates change.
  await startVocabularyWorker(boss, runtime, { running, pollingIntervalSeconds: options.pollingIntervalSeconds });
  await startEmbedWorkers(boss, runtime, {
    client: options.embeddings,
    running,
    pollingIntervalSeconds: options.pollingIntervalSeconds,
    sweepIntervalMs: options.sweepIntervalMs,
  });

  const minAgeMs = options.sweepMinAgeMs ?? 60_000;
  const sweep = async (): Promise<number> => {
    const waiting = await db.kysely
      .selectFrom("visits")
      .select(["org_id", "id"])
      .where("status", "=", "uploaded")
      .where("uploaded_at", "<=", new Date(Date.now() - minAgeMs))
      .orderBy("uploaded_at")
      .limit(1000)
      .execute();
    let queued = 0;
    for (const v of waiting) {
      const { jobId } = await enqueueTranscribeVisit(db, { orgId: v.org_id, visitId: v.id });
      if (jobId) queued += 1;
    }
    return queued;
  };
  const swept = await sweep();
  if (swept) logger.info({ queued: swept }, "re-queued uploaded visits");
  const interval = options.sweepIntervalMs ?? 60_000;
  const timer =
    interval > 0
      ? setInterval(() => {
          sweep().catch((err: unknown) => logger.error({ err }, "visit sweep failed"));
        }, interval)
      : null;
  timer?.unref();

  const purge = (now?: Date) => purgeExpiredAudio({ db, store, logger, now });
  const purgeInterval = options.purgeIntervalMs ?? 60 * 60_000;
  const purgeTimer =
    purgeInterval > 0
      ? setInterval(() => {
          purge().catch((err: unknown) => logger.error({ err }, "audio retention purge failed"));
        }, purgeInterval)
      : null;
  purgeTimer?.unref();

  let stopped: Promise<void> | null = null;
  const stop = async ({ graceMs = 5000, signal }: StopJobsOptions) => {
    if (timer) clearInterval(timer);
    if (purgeTimer) clearInterval(purgeTimer);
    unregisterBoss(db);
    // No new jobs from here; running ones get `graceMs` to finish. pg-boss's own graceful stop
    // cannot be cut short, so the wait is ours and the stop after it is not graceful.
    const drained = Promise.allSettled(WORKED_QUEUES.map((queue) => boss.offWork(queue, { wait: true })));
    await within(drained, graceMs, signal);
    const interrupted = running.list();
    // Fails what still runs back to its queue (as a retry) and aborts its handler.
    try {
      await boss.stop({ graceful: false, close: false });
    } catch (err) {
      // Whatever it could not fail is retried when its heartbeat lapses; the database must still close.
      logger.error({ err }, "job queue did not stop cleanly");
      return;
    }
    if (interrupted.length) {
      // A job cut short by a shutdown did nothing wrong: the next process runs it as soon as it starts,
      // not after the retry back-off (15 s or more). Handlers are idempotent (CONVENTIONS "Services and data").
      await Promise.allSettled(interrupted.map(({ queue, id }) => boss.update(queue, undefined, { id, startAfter: new Date() })));
      logger.warn({ jobs: interrupted }, "jobs interrupted by the stop are back in their queue");
    }
  };
  const handle: JobsHandle = {
    boss,
    sweep,
    purge,
    stop(options = {}) {
      if (!stopped) {
        handles.delete(db);
        stopped = stop(options).finally(() => stopping.delete(db));
        stopping.set(db, stopped);
      }
      return stopped;
    },
  };
  handles.set(db, handle);
  return handle;
}

/**
 * A web-only process: every queue exists (pg-boss refuses a send to an unknown queue, and a worker
 * may not have started yet) and jobs are sent from here, but none is claimed. Its stop only
 * closes pg-boss: nothing runs here to hand back.
 */
async function startEnqueueOnly(boss: PgBoss, db: Database, logger: Logger): Promise<JobsHandle> {
  await ensureQueue(boss, GENERATE_NOTE_DEAD_QUEUE, GENERATE_NOTE_DEAD_QUEUE_OPTIONS);
  await ensureQueue(boss, GENERATE_NOTE_QUEUE, GENERATE_NOTE_QUEUE_OPTIONS);
  await ensureQueue(boss, REFRESH_VOCABULARY_QUEUE, REFRESH_VOCABULARY_QUEUE_OPTIONS);
  await ensureQueue(boss, RAG_EMBED_QUEUE, RAG_EMBED_QUEUE_OPTIONS);
  registerBoss(db, boss);
  logger.info("web role: jobs are queued here and run by worker processes");
  let stopped: Promise<void> | null = null;
  const handle: JobsHandle = {
    boss,
    sweep: async () => 0,
    purge: async () => 0,
    stop() {
      if (!stopped) {
        handles.delete(db);
        unregisterBoss(db);
        stopped = boss
          .stop({ graceful: false, close: false })
          .catch((err: unknown) => logger.error({ err }, "job queue did not stop cleanly"))
          .finally(() => stopping.delete(db));
        stopping.set(db, stopped);
      }
      return stopped;
    },
  };
  handles.set(db, handle);
  return handle;
}

/** Stops the job runner of `db`, or of every database when none is named; waits for a stop already under way. */
export async function stopJobs(db?: Database, options: StopJobsOptions = {}): Promise<void> {
  const targets = db ? [handles.get(db)] : [...handles.values()];
  const underway = db ? [stopping.get(db)] : [...stopping.values()];
  await Promise.all([...targets.map((h) => h?.stop(options)), ...underway]);
}

/** Waits for `promise`, `ms` at most, or until `signal` aborts; never rejects. */
async function within(promise: Promise<unknown>, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort = () => {};
  await Promise.race([
    promise.catch(() => {}),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.max(0, ms));
      onAbort = resolve;
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
  ]);
  clearTimeout(timer);
  signal?.removeEventListener("abort", onAbort);
}
