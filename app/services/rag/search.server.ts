import { sql } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { OrgRole } from "#app/db/schema.ts";
import { isoDate } from "#app/services/patients/iso-date.ts";
import type { ExpandedQuery } from "./expand.ts";
import type { AskFilters, AskRecordType, RankedPassage } from "./model.ts";

// Ranking in PostgreSQL (issue 12 "Retrieval"), the same SQL on PGlite and server PostgreSQL:
// full-text matching of the question's words and their expansions in each passage's own
// language configuration, scored by cover density (ts_rank_cd rewards terms close together),
// plus the question's own words again and its word pairs as phrases (the phrase boost); the
// visit's clinical date breaks ties, newest first. The organisation and the role's record types
// are in the WHERE clause (and in the policy of 0017) so nothing is ranked that the caller may
// not read.

/**
 * docs/permissions.md "Records Q&A": which record types a role may cite. Admins see no clinical
 * data; staff read transcripts and coding cases (they export cases), not doctor notes.
 */
export function recordTypesFor(role: OrgRole): AskRecordType[] {
  if (role === "owner" || role === "clinician") return ["transcription", "doctor_note", "case"];
  if (role === "staff") return ["transcription", "case"];
  return [];
}

// authority: per level of 0055's order (case 0 … signed note 4), so between passages that match
// alike the higher source ranks first (issue 28). Tuned on ACI-Bench train only (bench/rag/run.ts).
const WEIGHTS = { all: 1, own: 1, phrase: 2, amount: 0.3, authority: 0.05 } as const;
/** A number with a unit, as records state doses and levels. */
const AMOUNT = "[0-9]+([.,][0-9]+)? ?(mg|milligrams?|mcg|micrograms?|g|grams?|ml|units?|milligrammes?|miligramos?|%)";

function perLanguage(terms: string[]) {
  return sql`app.rag_query('en', ${terms}::text[]) as en, app.rag_query('fr', ${terms}::text[]) as fr, app.rag_query('es', ${terms}::text[]) as es`;
}
const pick = (alias: string) =>
  sql.raw(`case c.language when 'fr' then ${alias}.fr when 'es' then ${alias}.es else ${alias}.en end`);

export interface RankRecordsArgs {
  orgId: string;
  types: AskRecordType[];
  query: ExpandedQuery;
  patientId?: string | null;
  filters: AskFilters;
  limit: number;
  debug?: boolean;
}

/** The role's record types narrowed by the `record_types` filter. */
export function wantedTypes(types: AskRecordType[], filters: AskFilters): AskRecordType[] {
  return filters.record_types?.length ? types.filter((t) => filters.record_types?.includes(t)) : types;
}

export async function rankRecords(trx: ActorTransaction, args: RankRecordsArgs): Promise<RankedPassage[]> {
  const wanted = wantedTypes(args.types, args.filters);
  const all = [...args.query.terms, ...args.query.expansions];
  if (wanted.length === 0 || all.length === 0) return [];
  // "own": what the question is about — its non-generic words and their synonyms — counted twice.
  const own = args.query.key.length ? args.query.key : all;
  const phrases = args.query.phrases.length ? args.query.phrases : [""];
  const { rows } = await sql<RankedRow & { r_all: number; r_own: number; r_phrase: number; r_amount: number; score: number }>`
    -- The three queries are built once (materialized), the passages ranked alone, and only the
    -- winners joined to their visit and patient: those tables' policies cost a check per row.
    with qa as materialized (select ${perLanguage(all)}),
    qo as materialized (select ${perLanguage(own)}),
    qp as materialized (select ${perLanguage(phrases)}),
    ranked as (
      select c.id, c.record_type, c.source_table, c.source_id, c.field, c.label, c.note_status, c.visit_id, c.patient_id,
             c.org_id, c.visit_date, c.created_at, c.position, c.start_s, c.end_s, c.language, c.text, c.authority,
             s.r_all, s.r_own, s.r_phrase, s.r_amount,
             ${WEIGHTS.all} * s.r_all + ${WEIGHTS.own} * s.r_own + ${WEIGHTS.phrase} * s.r_phrase
               + ${WEIGHTS.amount} * s.r_amount * (s.r_own > 0)::int
               + ${WEIGHTS.authority}::float8 * c.authority as score
      from public.record_chunks c
      cross join qa cross join qo cross join qp
      cross join lateral (select
          coalesce(ts_rank_cd(c.tsv, ${pick("qa")}, 1), 0)::float8 as r_all,
          coalesce(ts_rank_cd(c.tsv, ${pick("qo")}, 1), 0)::float8 as r_own,
          coalesce(ts_rank_cd(c.tsv, ${pick("qp")}, 1), 0)::float8 as r_phrase,
          case when ${args.query.wantsAmount} and c.text ~* ${AMOUNT} then 1 else 0 end::float8 as r_amount) s
      where c.org_id = ${args.orgId}
        and c.record_type in (${sql.join(wanted)})
        ${args.patientId ? sql`and c.patient_id = ${args.patientId}` : sql``}
        ${args.filters.date_from ? sql`and c.visit_date >= ${args.filters.date_from}::date` : sql``}
        ${args.filters.date_to ? sql`and c.visit_date <= ${args.filters.date_to}::date` : sql``}
        -- Candidates hold what the question is about (not only "dose" or "today"): fewer rows to score.
        and ((c.language = 'en' and c.tsv @@ qo.en) or (c.language = 'fr' and c.tsv @@ qo.fr)
             or (c.language = 'es' and c.tsv @@ qo.es))
      order by score desc, c.visit_date desc, c.created_at desc, c.position
      limit ${args.patientId ? args.limit : args.limit * DIVERSITY_POOL})
    select r.id, r.record_type, r.source_table, r.source_id, r.field, r.label, r.note_status, r.visit_id, r.patient_id,
           coalesce(nullif(v.title, ''), p.display_name) as visit_name, r.visit_date::text as visit_date,
           r.start_s, r.end_s, r.language, r.text, r.authority, p.display_name as patient_name,
           ${noteSignedAt("r")} as signed_at, r.r_all, r.r_own, r.r_phrase, r.r_amount, r.score
    from ranked r
    join public.visits v on v.org_id = r.org_id and v.id = r.visit_id
    join public.patients p on p.org_id = v.org_id and p.id = v.patient_id
    order by r.score desc, r.visit_date desc, r.created_at desc, r.position`.execute(trx);
  return diversify(rows, args.patientId ? Number.POSITIVE_INFINITY : PER_VISIT, args.limit).map((r) => {
    const score = Number(r.score);
    const features = {
      all: r.r_all,
      own: r.r_own,
      phrase: r.r_phrase,
      amount: r.r_amount,
      authority: r.authority,
      score,
    };
    return toPassage(r, score, args.debug ? features : undefined);
  });
}

/** Organisation-wide, the pool ranked before at most PER_VISIT passages of one visit are kept. */
const DIVERSITY_POOL = 3;
const PER_VISIT = 1;

/**
 * Organisation-wide, one visit's many matching sentences would fill every citation: keep at most
 * `perVisit` of each visit in rank order, then fill up with the rest (issue 28 "hit@6").
 */
export function diversify<T extends { visit_id: string }>(rows: T[], perVisit: number, limit: number): T[] {
  const seen = new Map<string, number>();
  const first: T[] = [];
  const later: T[] = [];
  for (const r of rows) {
    const n = seen.get(r.visit_id) ?? 0;
    seen.set(r.visit_id, n + 1);
    (n < perVisit ? first : later).push(r);
  }
  return [...first, ...later].slice(0, limit);
}

/** A passage as both rankings (full text, dense) select it. */
export interface RankedRow {
  id: string;
  record_type: AskRecordType;
  source_table: "transcriptions" | "doctor_notes" | "cases";
  source_id: string;
  field: string;
  label: string;
  note_status: RankedPassage["noteStatus"];
  visit_id: string;
  patient_id: string;
  visit_name: string;
  visit_date: string;
  start_s: number | null;
  end_s: number | null;
  language: RankedPassage["language"];
  text: string;
  authority: number;
  patient_name: string;
  signed_at: string | Date | null;
}

/** A note passage's signature (or last amendment's signature) time, null for the rest: the answer dates it. */
export const noteSignedAt = (alias: "r" | "c") =>
  sql.raw(`(select n.signed_at from public.notes n
  where ${alias}.record_type = 'doctor_note' and n.org_id = ${alias}.org_id and n.id = ${alias}.source_id)`);

export function toPassage(r: RankedRow, score: number, features?: Record<string, number>): RankedPassage {
  return {
    id: r.id,
    table: r.source_table,
    sourceId: r.source_id,
    field: r.field,
    label: r.label,
    noteStatus: r.note_status,
    visitId: r.visit_id,
    patientId: r.patient_id,
    visitName: r.visit_name,
    date: isoDate(r.visit_date) ?? "",
    start: r.start_s,
    end: r.end_s,
    language: r.language,
    text: r.text,
    authority: Number(r.authority),
    patientName: r.patient_name,
    signedAt: r.signed_at === null ? null : new Date(r.signed_at).toISOString(),
    score,
    ...(features ? { features } : {}),
  };
}

/** Product help in the interface language: whole articles, best first. */
export async function rankHelp(
  trx: ActorTransaction,
  args: { query: ExpandedQuery; language: "en" | "fr" | "es"; limit: number },
): Promise<RankedPassage[]> {
  const all = [...args.query.terms, ...args.query.expansions];
  if (all.length === 0) return [];
  const { rows } = await sql<{ id: string; slug: string; title: string; body: string; day: string; rank: number }>`
    select h.id, h.slug, h.title, h.body, h.updated_at::date::text as day,
           ts_rank_cd(h.tsv, q.q, 1)::float8 as rank
    from public.help h cross join (select app.rag_query(${args.language}, ${all}::text[]) as q) q
    where h.language = ${args.language} and h.tsv @@ q.q
    order by rank desc, h.slug
    limit ${args.limit}`.execute(trx);
  return rows.map((r) => ({
    id: r.id,
    table: "help",
    sourceId: r.id,
    field: "body",
    label: r.title,
    noteStatus: null,
    visitId: null,
    patientId: null,
    visitName: r.title,
    date: r.day,
    start: null,
    end: null,
    language: args.language,
    text: r.body,
    authority: 0,
    patientName: "",
    signedAt: null,
    score: r.rank,
  }));
}
