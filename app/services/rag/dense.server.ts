import { sql } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { AskFilters, AskRecordType, RankedPassage } from "./model.ts";
import { type RankedRow, toPassage, wantedTypes } from "./search.server.ts";

// Dense retrieval (issue 12, ADR 0020): the passages whose stored embedding is closest to the
// question's, under the same organisation, role, patient, date and record-type filters as the
// full-text ranking (and 0026's policy), so nothing the caller may not read is ever scored.
// pgvector's cosine distance where 0026 could add the `vec` column; the SQL cosine elsewhere.

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

export async function rankDense(trx: ActorTransaction, args: RankDenseArgs): Promise<RankedPassage[]> {
  const wanted = wantedTypes(args.types, args.filters);
  if (wanted.length === 0 || args.vector.length === 0) return [];
  const similarity = (await hasVectorColumn(trx))
    ? sql`(1 - (e.vec operator(public.<=>) ${JSON.stringify(args.vector)}::public.vector))::float8`
    : sql`app.rag_cosine(e.embedding, ${args.vector}::real[])`;
  const { rows } = await sql<RankedRow & { similarity: number }>`
    with near as (
      select e.chunk_id, ${similarity} as similarity
      from public.record_embeddings e
      join public.record_chunks c on c.id = e.chunk_id
      where e.org_id = ${args.orgId} and c.org_id = ${args.orgId}
        and e.model = ${args.model} and e.dims = ${args.vector.length}
        and e.record_type in (${sql.join(wanted)})
        ${args.patientId ? sql`and c.patient_id = ${args.patientId}` : sql``}
        ${args.filters.date_from ? sql`and c.visit_date >= ${args.filters.date_from}::date` : sql``}
        ${args.filters.date_to ? sql`and c.visit_date <= ${args.filters.date_to}::date` : sql``}
      order by similarity desc nulls last
      limit ${args.limit})
    select c.id, c.record_type, c.source_table, c.source_id, c.field, c.label, c.note_status, c.visit_id, c.patient_id,
           coalesce(nullif(v.title, ''), p.display_name) as visit_name, c.visit_date::text as visit_date,
           c.start_s, c.end_s, c.language, c.text, n.similarity
    from near n
    join public.record_chunks c on c.id = n.chunk_id
    join public.visits v on v.org_id = c.org_id and v.id = c.visit_id
    join public.patients p on p.org_id = v.org_id and p.id = v.patient_id
    where n.similarity is not null
    order by n.similarity desc, c.visit_date desc, c.position`.execute(trx);
  return rows.map((r) => toPassage(r, r.similarity, { similarity: r.similarity }));
}
