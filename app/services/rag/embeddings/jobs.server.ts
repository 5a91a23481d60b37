import type { PgBoss } from "pg-boss";
import { z } from "zod";
import type { Database } from "#app/db/database.server.ts";
import { ensureQueue } from "#app/services/jobs/ensure-queue.server.ts";
import { runningBoss } from "#app/services/jobs/registry.server.ts";
import type { RunningJobs } from "#app/services/jobs/running-jobs.server.ts";
import type { Logger } from "#app/utils/logger.server.ts";
import type { EmbeddingsClient } from "./client.server.ts";
import { embedMissing } from "./reembed.server.ts";

// The `rag-embed` queue (ADR 0020): one job per organisation embeds a slice of its missing
// passages, then queues the next slice, so a deploy or crash loses at most one slice and a long
// re-embedding never holds a worker for hours. pg-boss retries a failed slice with backoff.

export const RAG_EMBED_QUEUE = "rag-embed";
/** Batches per job before it hands over to the next one. */
export const RAG_EMBED_BATCHES_PER_JOB = 20;

export const RagEmbedPayloadSchema = z.strictObject({ orgId: z.uuid() });
export type RagEmbedPayload = z.infer<typeof RagEmbedPayloadSchema>;

/** `stately` per organisation: one waiting and one running at most, so repeated starts coalesce. */
export const RAG_EMBED_QUEUE_OPTIONS = {
  policy: "stately",
  retryLimit: 5,
  retryDelay: 30,
  retryBackoff: true,
  retryDelayMax: 900,
  expireInSeconds: 30 * 60,
  heartbeatSeconds: 30,
} as const;

export async function enqueueRagEmbed(db: Database, payload: RagEmbedPayload): Promise<{ queued: boolean }> {
  const data = RagEmbedPayloadSchema.parse(payload);
  const boss = runningBoss(db);
  if (!boss) return { queued: false };
  await boss.send(RAG_EMBED_QUEUE, data, { singletonKey: data.orgId });
  return { queued: true };
}

export interface EmbedWorkersOptions {
  /** Without a client (EMBEDDINGS_* unset) the queue exists but nothing runs: dense retrieval is off. */
  client?: EmbeddingsClient | null;
  running: RunningJobs;
  pollingIntervalSeconds?: number;
  /** How often to queue organisations with passages not yet embedded (new records); 0 = never. */
  sweepIntervalMs?: number;
}

/** Creates the queue; with a client, works it and sweeps for passages indexed since the last run. */
export async function startEmbedWorkers(
  boss: PgBoss,
  runtime: { db: Database; logger: Logger },
  options: EmbedWorkersOptions,
): Promise<{ sweep(): Promise<number> }> {
  const { db, logger } = runtime;
  await ensureQueue(boss, RAG_EMBED_QUEUE, RAG_EMBED_QUEUE_OPTIONS);
  const client = options.client;
  if (!client) return { sweep: async () => 0 };
  await boss.work<RagEmbedPayload>(
    RAG_EMBED_QUEUE,
    { includeMetadata: true, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2, localConcurrency: 1 },
    options.running.track(RAG_EMBED_QUEUE, async ([job]) => {
      if (!job) return;
      const { orgId } = RagEmbedPayloadSchema.parse(job.data);
      const progress = await embedMissing({ db, client, orgId, maxBatches: RAG_EMBED_BATCHES_PER_JOB });
      logger.info({ jobId: job.id, orgId, ...progress }, "rag-embed slice done");
      // The next slice: a new job, so its progress survives this process.
      if (!progress.finished) await boss.send(RAG_EMBED_QUEUE, { orgId }, { singletonKey: orgId });
      return progress;
    }),
  );
  const sweep = async (): Promise<number> => {
    const { rows } = await db.pool.query<{ org_id: string }>(
      `select distinct c.org_id from public.record_chunks c
        where not exists (select 1 from public.record_embeddings e where e.chunk_id = c.id and e.model = $1)
        limit 1000`,
      [client.model],
    );
    for (const r of rows) await enqueueRagEmbed(db, { orgId: r.org_id });
    return rows.length;
  };
  const interval = options.sweepIntervalMs ?? 60_000;
  if (interval > 0) {
    const timer = setInterval(() => {
      sweep().catch((err: unknown) => logger.error({ err }, "rag-embed sweep failed"));
    }, interval);
    timer.unref();
    boss.once("stopped", () => clearInterval(timer));
  }
  return { sweep };
}
