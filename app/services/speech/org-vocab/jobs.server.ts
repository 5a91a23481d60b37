import type { PgBoss } from "pg-boss";
import { z } from "zod";
import type { Database } from "#app/db/database.server.ts";
import { ensureQueue } from "#app/services/jobs/ensure-queue.server.ts";
import { runningBoss } from "#app/services/jobs/registry.server.ts";
import type { RunningJobs } from "#app/services/jobs/running-jobs.server.ts";
import type { Logger } from "#app/utils/logger.server.ts";
import { refreshOrgVocabulary } from "./refresh.server.ts";

// The `refresh-org-vocabulary` queue (ADR 0032): queued when a note is signed or amended, a
// template changes or the owner edits the word list; the job re-reads that organisation's texts.

export const REFRESH_VOCABULARY_QUEUE = "refresh-org-vocabulary";

export const RefreshVocabularyPayloadSchema = z.strictObject({ orgId: z.uuid() });
export type RefreshVocabularyPayload = z.infer<typeof RefreshVocabularyPayloadSchema>;

/**
 * `stately` per organisation with a short delay: a clinician signing ten notes in a row queues
 * one refresh, not ten (a send while one waits is dropped); one that arrives while a refresh runs
 * still gets its own, so the last change is never missed.
 */
export const REFRESH_VOCABULARY_QUEUE_OPTIONS = {
  policy: "stately",
  retryLimit: 3,
  retryDelay: 30,
  retryBackoff: true,
  expireInSeconds: 10 * 60,
} as const;
export const REFRESH_VOCABULARY_DELAY_SECONDS = 15;

/** Best effort after the change committed: without a job runner the next change (or the owner's save) queues it. */
export async function enqueueVocabularyRefresh(
  db: Database,
  orgId: string,
  options: { delaySeconds?: number } = {},
): Promise<{ queued: boolean }> {
  const data = RefreshVocabularyPayloadSchema.parse({ orgId });
  const boss = runningBoss(db);
  if (!boss) return { queued: false };
  await boss.send(REFRESH_VOCABULARY_QUEUE, data, {
    singletonKey: data.orgId,
    startAfter: options.delaySeconds ?? REFRESH_VOCABULARY_DELAY_SECONDS,
  });
  return { queued: true };
}

/** Calls enqueueVocabularyRefresh, logging instead of failing the request that changed the text. */
export function queueVocabularyRefresh(db: Database, orgId: string, logger?: Logger): Promise<void> {
  return enqueueVocabularyRefresh(db, orgId).then(
    () => {},
    (err: unknown) => logger?.warn({ err, orgId }, "vocabulary refresh not queued"),
  );
}

export async function startVocabularyWorker(
  boss: PgBoss,
  runtime: { db: Database; logger: Logger },
  options: { running: RunningJobs; pollingIntervalSeconds?: number },
): Promise<void> {
  const { db, logger } = runtime;
  await ensureQueue(boss, REFRESH_VOCABULARY_QUEUE, REFRESH_VOCABULARY_QUEUE_OPTIONS);
  await boss.work<RefreshVocabularyPayload>(
    REFRESH_VOCABULARY_QUEUE,
    { includeMetadata: true, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 5, localConcurrency: 1 },
    options.running.track(REFRESH_VOCABULARY_QUEUE, async ([job]) => {
      if (!job) return;
      const parsed = RefreshVocabularyPayloadSchema.safeParse(job.data);
      if (!parsed.success) return;
      const result = await refreshOrgVocabulary(db, parsed.data.orgId, { signal: job.signal });
      logger.info({ jobId: job.id, orgId: parsed.data.orgId, ...result }, "vocabulary refreshed");
      return result ?? { missing: true };
    }),
  );
}
