import { sql } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { AskFilters, AskRecordType, RankedPassage } from "./model.ts";
import { noteSignedAt, type RankedRow, toPassage, wantedTypes } from "./search.server.ts";

// Dense retrieval (issue 12, ADR 0020): the passages whose stored embedding is closest to the
// question's, under the same organisation, role, patient, date and record-type filters as the
// full-text ranking (and 0026's policy), so nothing the caller may not read is ever scored.
// pgvector's cosine distance on 0030's HNSW index where the `vec` column exists (ADR 0027); the
// SQL cosine over real[] elsewhere (ADR 0020).

export interface RankDenseArgs {
  orgId: string;
  types: AskRecordType[];
  model: string;
  vector: number[];
  patientId?: string | null;
  filters: AskFilters;
  limit: number;
}

/** Whether this database has pgvector's column (0026 adds it only where the extension exists). */
export async function hasVectorColumn(trx: ActorTransaction): Promise<boolean> {
  const { rows } = await sql<{ ok: boolean }>`
    select exists (select 1 from pg_catalog.pg_attribute
                   where attrelid = 'public.record_embeddings'::regclass and attname = 'vec' and not attisdropped) as ok`.execute(
    trx,
  );
  return rows[0]?.ok === true;
}

/** HNSW's limit in pgvector; 0030 indexes `vec::vector(N)` per dimension count up to it. */
export const HNSW_MAX_DIMS = 2000;

export async function rankDense(trx: ActorTransaction, args: RankDenseArgs): Promise<RankedPassage[]> {
  const wanted = wantedTypes(args.types, args.filters);
  const dims = args.vector.length;
  if (wanted.length === 0 || dims === 0) return [];
  // An integer we produced (the vector's length), never client text: safe as a literal, and it must
  // be one — a type modifier cannot be a parameter, and 0030's partial index (`where dims = N`) is
  // only matched by a constant.
  const n = sql.raw(String(dims));
  const pgvector = await hasVectorColumn(trx);
  const indexed = pgvector && dims <= HNSW_MAX_DIMS;
  const query = JSON.stringify(args.vector);
  // Cosine distance (0 = same direction): pgvector's `<=>` on the indexed expression, on the bare
  // column past HNSW's limit, or 1 − app.rag_cosine over real[] where pgvector is absent.
  const distance = indexed
    ? sql`(e.vec::public.vector(${n}) operator(public.<=>) ${query}::public.vector(${n}))`
    : pgvector
      ? sql`(e.vec operator(public.<=>) ${query}::public.vector)`
      : sql`(1 - app.rag_cosine(e.embedding, ${args.vector}::real[]))`;
  if (indexed) {
    // The filters (organisation, role policy, patient, dates, types) are applied to what the HNSW
    // scan returns: let it keep scanning until `limit` rows pass them (pgvector ≥ 0.8). The search
    // list is twice the pool and at least 100 (pgvector's default 40 found 82% of the exact top 24
    // on 10,000 random 128-d vectors, 100 found 92% at the same latency; ADR 0027).
    // Transaction-local; a no-op placeholder where pgvector is not loaded.
    await sql`select set_config('hnsw.iterative_scan', 'relaxed_order', true),
                     set_config('hnsw.ef_search', ${String(Math.min(Math.max(100, 2 * args.limit), 1000))}, true)`.execute(trx);
  }
  const { rows } = await sql<RankedRow & { similarity: number }>`
    with near as materialized (
      select e.chunk_id, ${distance} as distance
      from public.record_embeddings e
      join public.record_chunks c on c.id = e.chunk_id
      where e.org_id = ${args.orgId} and c.org_id = ${args.orgId}
        and e.model = ${args.model} and e.dims = ${n}
        and e.record_type in (${sql.join(wanted)})
        ${args.patientId ? sql`and c.patient_id = ${args.patientId}` : sql``}
        ${args.filters.date_from ? sql`and c.visit_date >= ${args.filters.date_from}::date` : sql``}
        ${args.filters.date_to ? sql`and c.visit_date <= ${args.filters.date_to}::date` : sql``}
      order by distance
      limit ${args.limit})
    select c.id, c.record_type, c.source_table, c.source_id, c.field, c.label, c.note_status, c.visit_id, c.patient_id,
           coalesce(nullif(v.title, ''), p.display_name) as visit_name, c.visit_date::text as visit_date,
           c.start_s, c.end_s, c.language, c.text, c.authority, p.display_name as patient_name,
           ${noteSignedAt("c")} as signed_at, 1 - n.distance as similarity
    from near n
    join public.record_chunks c on c.id = n.chunk_id
    join public.visits v on v.org_id = c.org_id and v.id = c.visit_id
    join public.patients p on p.org_id = v.org_id and p.id = v.patient_id
    -- An all-zero vector has no direction: null from app.rag_cosine, NaN from pgvector.
    where n.distance is not null and n.distance <> 'NaN'::float8
    order by n.distance, c.visit_date desc, c.position`.execute(trx);
  return rows.map((r) => toPassage(r, r.similarity, { similarity: r.similarity }));
}
