import { type RawBuilder, sql } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { DashboardRange, DayBucket } from "./range.ts";
import { TODAY_STATUSES, type TodayStatus } from "./stages.ts";

export { TODAY_STATUSES, type TodayStatus };

// The dashboard's figures, each one SQL statement under the actor's row-level security (issue 16).
// Days arrive as [start, end) instants cut in the organisation's zone (range.ts), joined as a
// VALUES list, so each day is an index range scan (migration 0021) and DST days are 23/25 hours.

export interface Scope {
  orgId: string;
  /** Only this clinician's visits (and the notes of those visits); null = the whole practice. */
  clinicianId: string | null;
  /** Whether the actor may read notes (owners, clinicians): without it, note figures are not computed. */
  notes: boolean;
}

const clinicianFilter = (alias: string, scope: Scope): RawBuilder<unknown> =>
  scope.clinicianId ? sql`and ${sql.ref(`${alias}.clinician_id`)} = ${scope.clinicianId}::uuid` : sql``;

function daysValues(days: DayBucket[]): RawBuilder<unknown> {
  return sql`(values ${sql.join(
    days.map((d) => sql`(${d.day}::date, ${d.start.toISOString()}::timestamptz, ${d.end.toISOString()}::timestamptz)`),
  )}) as d(day, s, e)`;
}

/**
 * A visit's stage: its own status until transcribed, then its latest note's. Without note access
 * a transcribed visit reads "ready for a note" (the caller says so: `notes_visible: false`).
 */
function stageOf(scope: Scope): RawBuilder<string> {
  const latestNote = scope.notes
    ? sql`(select n.status from public.notes n where n.org_id = v.org_id and n.visit_id = v.id
           order by n.created_at desc limit 1)`
    : sql`null::text`;
  return sql<string>`case
      when v.status = 'failed' then 'failed'
      when v.status in ('draft', 'recording') then 'recording'
      when v.status in ('uploaded', 'transcribing') then 'transcribing'
      else case ${latestNote}
        when 'signed' then 'signed' when 'amended' then 'signed' when 'draft' then 'draft_to_sign'
        else 'ready_for_note' end
    end`;
}

export interface TodayVisit {
  id: string;
  title: string;
  patient_id: string;
  patient_name: string;
  stage: TodayStatus;
  created_at: string;
}

/** The visits created on `day` ([start, end)), newest first, each with its stage. */
export async function todayVisits(trx: ActorTransaction, scope: Scope, day: DayBucket, limit = 100): Promise<TodayVisit[]> {
  const { rows } = await sql<TodayVisit & { created_at: Date | string }>`
    select v.id, v.title, v.patient_id, p.display_name as patient_name, ${stageOf(scope)} as stage, v.created_at
    from public.visits v
    join public.patients p on p.org_id = v.org_id and p.id = v.patient_id
    where v.org_id = ${scope.orgId} and v.created_at >= ${day.start.toISOString()}::timestamptz
      and v.created_at < ${day.end.toISOString()}::timestamptz ${clinicianFilter("v", scope)}
    order by v.created_at desc
    limit ${limit}`.execute(trx);
  return rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() }));
}

/** How many of the day's visits are at each stage (every stage present, zero when none). */
export async function todayByStatus(trx: ActorTransaction, scope: Scope, day: DayBucket): Promise<Record<TodayStatus, number>> {
  const { rows } = await sql<{ stage: TodayStatus; n: number }>`
    select ${stageOf(scope)} as stage, count(*)::int as n
    from public.visits v
    where v.org_id = ${scope.orgId} and v.created_at >= ${day.start.toISOString()}::timestamptz
      and v.created_at < ${day.end.toISOString()}::timestamptz ${clinicianFilter("v", scope)}
    group by 1`.execute(trx);
  const out = Object.fromEntries(TODAY_STATUSES.map((s) => [s, 0])) as Record<TodayStatus, number>;
  for (const row of rows) out[row.stage] = row.n;
  return out;
}

export interface DayFigures {
  date: string;
  visits: number;
  recorded_minutes: number;
  /** Null when the actor may not read notes. */
  notes_signed: number | null;
}

/** Visits, recorded minutes (by the visit's day) and notes signed (by the signature's day), per day. */
export async function seriesPerDay(trx: ActorTransaction, scope: Scope, range: DashboardRange): Promise<DayFigures[]> {
  const signed = scope.notes
    ? sql`(select count(*) from public.notes n join public.visits v on v.org_id = n.org_id and v.id = n.visit_id
           where n.org_id = ${scope.orgId} and n.signed_at >= d.s and n.signed_at < d.e ${clinicianFilter("v", scope)})::int`
    : sql`null::int`;
  const { rows } = await sql<{ date: string; visits: number; ms: string | number; notes_signed: number | null }>`
    select to_char(d.day, 'YYYY-MM-DD') as date,
      (select count(*) from public.visits v
        where v.org_id = ${scope.orgId} and v.created_at >= d.s and v.created_at < d.e ${clinicianFilter("v", scope)})::int as visits,
      (select coalesce(sum(v.audio_duration_ms), 0) from public.visits v
        where v.org_id = ${scope.orgId} and v.created_at >= d.s and v.created_at < d.e ${clinicianFilter("v", scope)})::float8 as ms,
      ${signed} as notes_signed
    from ${daysValues(range.days)}
    order by d.day`.execute(trx);
  return rows.map((r) => ({
    date: r.date,
    visits: r.visits,
    // Tenths of a minute: a chart reads minutes, a short visit still shows.
    recorded_minutes: Math.round(Number(r.ms) / 6000) / 10,
    notes_signed: r.notes_signed,
  }));
}

export interface Medians {
  /** Seconds from Stop (the recording reached the server) to the draft note, notes drafted in the range. */
  stop_to_draft_s: number | null;
  /** Seconds from the draft to the signature, notes signed in the range. */
  draft_to_signed_s: number | null;
}

export async function medians(trx: ActorTransaction, scope: Scope, range: DashboardRange): Promise<Medians> {
  if (!scope.notes) return { stop_to_draft_s: null, draft_to_signed_s: null };
  const { rows } = await sql<{ a: number | null; b: number | null }>`
    select
      (select percentile_cont(0.5) within group (order by extract(epoch from n.generated_at - v.uploaded_at))
         from public.notes n join public.visits v on v.org_id = n.org_id and v.id = n.visit_id
        where n.org_id = ${scope.orgId} and n.generated_at >= ${range.start.toISOString()}::timestamptz
          and n.generated_at < ${range.end.toISOString()}::timestamptz
          and v.uploaded_at is not null and n.generated_at >= v.uploaded_at ${clinicianFilter("v", scope)})::float8 as a,
      (select percentile_cont(0.5) within group (order by extract(epoch from n.signed_at - n.generated_at))
         from public.notes n join public.visits v on v.org_id = n.org_id and v.id = n.visit_id
        where n.org_id = ${scope.orgId} and n.signed_at >= ${range.start.toISOString()}::timestamptz
          and n.signed_at < ${range.end.toISOString()}::timestamptz
          and n.generated_at is not null and n.signed_at >= n.generated_at ${clinicianFilter("v", scope)})::float8 as b`.execute(
    trx,
  );
  const round = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(Number(v)));
  return { stop_to_draft_s: round(rows[0]?.a), draft_to_signed_s: round(rows[0]?.b) };
}

// FULL JOIN needs an equality: visits without a clinician meet under this key.
const NO_ONE = sql`'00000000-0000-0000-0000-000000000000'::uuid`;

export interface ClinicianFigures {
  clinician_id: string | null;
  visits: number;
  recorded_minutes: number;
  notes_signed: number | null;
}

/** The range's totals per clinician (visits without a clinician under null). */
export async function perClinician(trx: ActorTransaction, scope: Scope, range: DashboardRange): Promise<ClinicianFigures[]> {
  const sig = scope.notes
    ? sql`select v.clinician_id, count(*)::int as notes_signed
          from public.notes n join public.visits v on v.org_id = n.org_id and v.id = n.visit_id
          where n.org_id = ${scope.orgId} and n.signed_at >= ${range.start.toISOString()}::timestamptz
            and n.signed_at < ${range.end.toISOString()}::timestamptz ${clinicianFilter("v", scope)}
          group by v.clinician_id`
    : sql`select null::uuid as clinician_id, 0 as notes_signed where false`;
  // Visits by their own day, notes by their signature's day: two sums, one pass each.
  const { rows } = await sql<{ clinician_id: string | null; visits: number; ms: string | number; notes_signed: number | null }>`
    with vis as (
      select v.clinician_id, count(*)::int as visits, coalesce(sum(v.audio_duration_ms), 0)::float8 as ms
      from public.visits v
      where v.org_id = ${scope.orgId} and v.created_at >= ${range.start.toISOString()}::timestamptz
        and v.created_at < ${range.end.toISOString()}::timestamptz ${clinicianFilter("v", scope)}
      group by v.clinician_id
    ), sig as (${sig})
    select coalesce(vis.clinician_id, sig.clinician_id) as clinician_id, coalesce(vis.visits, 0) as visits,
      coalesce(vis.ms, 0) as ms, ${scope.notes ? sql`coalesce(sig.notes_signed, 0)` : sql`null::int`} as notes_signed
    from vis full join sig on coalesce(vis.clinician_id, ${NO_ONE}) = coalesce(sig.clinician_id, ${NO_ONE})
    order by 2 desc`.execute(trx);
  return rows.map((r) => ({
    clinician_id: r.clinician_id,
    visits: r.visits,
    recorded_minutes: Math.round(Number(r.ms) / 6000) / 10,
    notes_signed: r.notes_signed,
  }));
}
