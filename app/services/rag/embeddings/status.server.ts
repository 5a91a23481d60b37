import { sql } from "kysely";
import { asActor, checkOrgId, type OrgServiceArgs, requireMemberRole, requireRole } from "#app/services/orgs/context.server.ts";
import { AppError } from "#app/utils/app-error.ts";
import type { EmbeddingsClient } from "./client.server.ts";
import { enqueueRagEmbed } from "./jobs.server.ts";
import { markQueued } from "./reembed.server.ts";

// GET/POST /api/rag/embeddings (docs/api.md "Dense retrieval"): the owner's view of the
// re-embedding — whether dense retrieval is configured, on which model, whether the database has
// pgvector, and how far the job is — and the button that starts it.

export interface EmbeddingStatus {
  configured: boolean;
  model: string | null;
  /** pgvector's column exists (0026); otherwise the cosine is computed in SQL. */
  pgvector: boolean;
  state: "idle" | "queued" | "running" | "done" | "failed";
  done: number;
  total: number;
  error: string | null;
  updated_at: string | null;
}

type Args = OrgServiceArgs & { orgId: string; client: EmbeddingsClient | null };

export const embeddingErrors = {
  notConfigured: () =>
    new AppError(409, "embeddings_not_configured", "Dense retrieval is off: set EMBEDDINGS_BASE_URL and EMBEDDINGS_MODEL"),
};

export function getEmbeddingStatus(args: Args): Promise<EmbeddingStatus> {
  checkOrgId(args.orgId);
  return asActor(args, args.orgId, async (trx) => {
    requireRole(await requireMemberRole(trx, args.orgId, args.actor.userId), ["owner"]);
    const model = args.client?.model ?? null;
    const { rows } = await sql<{ pgvector: boolean; total: number; done: number }>`
      select exists (select 1 from pg_catalog.pg_attribute
                     where attrelid = 'public.record_embeddings'::regclass and attname = 'vec' and not attisdropped) as pgvector,
             (select count(*) from public.record_chunks where org_id = ${args.orgId})::int as total,
             (select count(*) from public.record_embeddings where org_id = ${args.orgId} and model = ${model ?? ""})::int as done`.execute(
      trx,
    );
    const counts = rows[0] ?? { pgvector: false, total: 0, done: 0 };
    const run = await trx.selectFrom("rag_embedding_runs").selectAll().where("org_id", "=", args.orgId).executeTakeFirst();
    const current = run && run.model === model ? run : null;
    return {
      configured: args.client != null,
      model,
      pgvector: counts.pgvector,
      // The counts are live; the state is the job's last word on this model.
      state: current?.state ?? "idle",
      done: counts.done,
      total: counts.total,
      error: current?.state === "failed" ? current.error : null,
      updated_at: current ? current.updated_at.toISOString() : null,
    };
  });
}

/** Queues the re-embedding of every passage missing an embedding from the configured model. */
export async function startReembedding(args: Args): Promise<EmbeddingStatus> {
  checkOrgId(args.orgId);
  await asActor(args, args.orgId, async (trx) => {
    requireRole(await requireMemberRole(trx, args.orgId, args.actor.userId), ["owner"]);
  });
  const client = args.client;
  if (!client) throw embeddingErrors.notConfigured();
  await markQueued(args.db, args.orgId, client.model);
  await enqueueRagEmbed(args.db, { orgId: args.orgId });
  return getEmbeddingStatus(args);
}
