import { type Database, openDatabase } from "#app/db/database.server.ts";
import { migrate } from "#app/db/migrate.server.ts";
import { type AuthRuntime, startAuthRuntime } from "#app/services/auth/auth-runtime.server.ts";
import { closeProgressNotifications } from "#app/services/events/progress-notifications.server.ts";
import { type StopJobsOptions, startJobs, stopJobs } from "#app/services/jobs/jobs.server.ts";
import { createNoteEngine } from "#app/services/notes/engines/registry.server.ts";
import { createEmbeddingsClient } from "#app/services/rag/embeddings/client.server.ts";
import { createSpeechRegistry } from "#app/services/speech/config.server.ts";
import type { EngineRegistry } from "#app/services/speech/engine.ts";
import { logWhisperModels } from "#app/services/speech/engine-report.server.ts";
import { loadOrgVocabulary } from "#app/services/speech/org-vocab/refresh.server.ts";
import { createLiveTranscribePort, createTranscribePort } from "#app/services/speech/transcribe-file.server.ts";
import type { Env } from "#app/utils/env.server.ts";
import { createLogger, type Logger } from "#app/utils/logger.server.ts";

export interface Runtime {
  env: Env;
  db: Database;
  logger: Logger;
  auth: AuthRuntime;
  /** The speech engines the transcription jobs use (ASR_*), for the pages that report on them. */
  speech?: EngineRegistry;
  /**
   * Stops the job workers ahead of close() (a shutdown runs it while HTTP requests drain): running
   * jobs get `graceMs` to finish, or until `signal` aborts, then go back to their queue.
   */
  stopJobs?(options?: StopJobsOptions): Promise<void>;
  /**
   * Stops the job workers (waiting for a stop under way, unless `waitForJobs` is false: a shutdown
   * whose job stop is stuck still closes the database), then closes the database.
   */
  close(options?: { waitForJobs?: boolean }): Promise<void>;
}

/** Opens the database, applies migrations and returns the services shared by every request. */
export async function startRuntime(env: Env, overrides: { db?: Database; logger?: Logger } = {}): Promise<Runtime> {
  const logger = overrides.logger ?? createLogger(env.LOG_LEVEL);
  const db = overrides.db ?? (await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.MURMUR_DATA_DIR }));
  const applied = await migrate(db);
  if (applied.length) logger.info({ applied }, "migrations applied");
  logger.info({ database: db.kind }, "database ready");
  const auth = await startAuthRuntime(env, db, logger);
  const runtime: Runtime = {
    env,
    db,
    logger,
    auth,
    stopJobs: (options) => stopJobs(db, options),
    async close({ waitForJobs = true } = {}) {
      // The database closes whatever happened before it: an embedded PGlite must not be left open.
      try {
        if (waitForJobs) await stopJobs(db);
        await closeProgressNotifications(db);
        await auth.close?.();
      } finally {
        await db.close();
      }
    },
  };
  // The transcription workers run in this process; the engines themselves run as child processes
  // (pocketsphinx, ffmpeg) or remote APIs, so pages stay fast while a visit is transcribed.
  // The ASR_* settings were validated with the rest of the env at boot (app/utils/env.server.ts).
  const speech = createSpeechRegistry(env, { dataDir: env.MURMUR_DATA_DIR });
  // Each visit is decoded with its own organisation's vocabulary (ADR 0032), read per job.
  const vocabularies = { vocabularyFor: (orgId: string) => loadOrgVocabulary(db, orgId) };
  runtime.speech = speech;
  logWhisperModels(speech, logger);
  // Issue 6: the note engine (extractive by default, or an OpenAI-compatible server) runs the
  // generate-note jobs in this process; NOTES_ENGINE and LLM_OPENAI_* were validated at boot.
  // ADR 0038: a web-only process (MURMUR_ROLE=web) queues jobs but runs none; worker processes do.
  if (env.MURMUR_ROLE === "web") {
    await startJobs(runtime, { workers: false });
    return runtime;
  }
  const generateNote = createNoteEngine(env);
  await startJobs(runtime, {
    transcribe: createTranscribePort(speech, vocabularies),
    transcribeLive: createLiveTranscribePort(speech, vocabularies),
    generateNote,
    // Issue 12: passages are embedded in the background when EMBEDDINGS_* is set (ADR 0020).
    embeddings: createEmbeddingsClient(env),
    superviseIntervalSeconds: env.JOBS_SUPERVISE_SECONDS,
  });
  return runtime;
}
