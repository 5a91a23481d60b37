import { sql } from "kysely";
import type { Database } from "#app/db/database.server.ts";
import type { EmbeddingsClient } from "./client.server.ts";

// Re-embedding (issue 12: "a resumable background job with progress"). The work list is not kept
// anywhere: it is every passage of the organisation without an embedding from the configured
// model, read again before each batch. A job that stops (crash, deploy, the server's error)
// resumes where it was by running again; a passage re-indexed meanwhile (new id) is simply
// missing and gets embedded; a model change makes every passage missing. Progress is one row per
// organisation in rag_embedding_runs, which owners read (GET /api/rag/embeddings).
//
// Runs on the owner connection (db.kysely): it is a job, not a request, and every query names the
// organisation.

export const EMBED_BATCH = 64;

export interface EmbedMissingArgs {
  db: Database;
  client: EmbeddingsClient;
  orgId: string;
  batchSize?: number;
  /** Stop after this many batches (tests, and a job that yields); the rest waits for the next run. */
  maxBatches?: number;
  signal?: AbortSignal;
}

export interface EmbedProgress {
  done: number;
  total: number;
  finished: boolean;
}

async function counts(db: Database, orgId: string, model: string): Promise<{ done: number; total: number }> {
  const { rows } = await sql<{ done: number; total: number }>`
    select (select count(*) from public.record_chunks where org_id = ${orgId})::int as total,
           (select count(*) from public.record_embeddings where org_id = ${orgId} and model = ${model})::int as done`.execute(
    db.kysely,
  );
  return rows[0] ?? { done: 0, total: 0 };
}

async function saveRun(
  db: Database,
  orgId: string,
  model: string,
  state: "queued" | "running" | "done" | "failed",
  progress: { done: number; total: number },
  error: string | null = null,
): Promise<void> {
  await sql`
    insert into public.rag_embedding_runs (org_id, model, state, done, total, error)
    values (${orgId}, ${model}, ${state}, ${progress.done}, ${progress.total}, ${error})
    on conflict (org_id) do update set model = excluded.model, state = excluded.state, done = excluded.done,
      total = excluded.total, error = excluded.error, updated_at = now(),
      started_at = case when rag_embedding_runs.state in ('done', 'failed') and excluded.state in ('queued', 'running')
                        then now() else rag_embedding_runs.started_at end`.execute(db.kysely);
}

/** Marks a run as waiting for its job (the owner's POST, before the job starts). */
export async function markQueued(db: Database, orgId: string, model: string): Promise<void> {
  await saveRun(db, orgId, model, "queued", await counts(db, orgId, model));
}

/** Embeds the organisation's passages that lack an embedding from `client.model`, batch by batch. */
export async function embedMissing(args: EmbedMissingArgs): Promise<EmbedProgress> {
  const { db, client, orgId } = args;
  const batchSize = args.batchSize ?? EMBED_BATCH;
  let progress = await counts(db, orgId, client.model);
  await saveRun(db, orgId, client.model, "running", progress);
  let indexedDims: number | null = null;
  try {
    for (let batch = 0; args.maxBatches === undefined || batch < args.maxBatches; batch++) {
      args.signal?.throwIfAborted();
      const { rows } = await sql<{ id: string; text: string; record_type: string }>`
        select c.id, c.text, c.record_type from public.record_chunks c
        where c.org_id = ${orgId}
          and not exists (select 1 from public.record_embeddings e where e.chunk_id = c.id and e.model = ${client.model})
        order by c.id
        limit ${batchSize}`.execute(db.kysely);
      if (rows.length === 0) {
        progress = await counts(db, orgId, client.model);
        await saveRun(db, orgId, client.model, "done", progress);
        return { ...progress, finished: true };
      }
      const vectors = await client.embed(
        rows.map((r) => r.text),
        args.signal,
      );
      const dims = vectors[0]?.length ?? 0;
      if (dims !== indexedDims) {
        // Before the first insert of this dimension count, while the index is cheap to build
        // (0030, ADR 0027); a no-op without pgvector and once the index exists.
        await sql`select app.rag_ensure_vector_index(${dims}::int)`.execute(db.kysely);
        indexedDims = dims;
      }
      // A passage deleted while its batch was being embedded is skipped by the join.
      await sql`
        insert into public.record_embeddings (chunk_id, org_id, record_type, model, dims, embedding)
        select c.id, c.org_id, c.record_type, ${client.model}, cardinality(x.v), x.v
        from jsonb_array_elements(${JSON.stringify(rows.map((r, i) => ({ id: r.id, v: vectors[i] })))}::jsonb) as j(item)
        cross join lateral (select (j.item ->> 'id')::uuid as id,
                                   array(select a.t::real from jsonb_array_elements_text(j.item -> 'v') with ordinality as a(t, n)
                                         order by a.n) as v) x
        join public.record_chunks c on c.id = x.id and c.org_id = ${orgId}
        on conflict (chunk_id) do update set model = excluded.model, dims = excluded.dims,
          embedding = excluded.embedding, record_type = excluded.record_type`.execute(db.kysely);
      progress = await counts(db, orgId, client.model);
      await saveRun(db, orgId, client.model, "running", progress);
    }
    return { ...progress, finished: false };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await saveRun(db, orgId, client.model, "failed", await counts(db, orgId, client.model), message.slice(0, 500));
    throw error;
  }
}
