import { type RawBuilder, sql } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { DashboardRange, DayBucket } from "./range.ts";
import { TODAY_STATUSES, type TodayStatus } from "./stages.ts";

export { TODAY_STATUSES, type TodayStatus };

// The dashboard's figures, each one SQL statement under the actor's row-level security (issue 16).
// The range arrives as [start, end) instants cut in the organisation's zone (range.ts); events are
// bucketed into that zone's days by PostgreSQL, so DST days are 23/25 hours (migrations 0021, 0028
// hold the indexes).

export interface Scope {
  orgId: string;
  /** Only this clinician's visits (and the notes of those visits); null = the whole practice. */
  clinicianId: string | null;
  /** Whether the actor may read notes (owners, clinicians): without it, note figures are not computed. */
  notes: boolean;
}

const clinicianFilter = (alias: string, scope: Scope): RawBuilder<unknown> =>
  scope.clinicianId ? sql`and ${sql.ref(`${alias}.clinician_id`)} = ${scope.clinicianId}::uuid` : sql``;

/**
 * A visit's stage: its own status until transcribed, then "coded" once its coding case is, else its latest note's. Without note access
 * a transcribed visit reads "ready for a note" (the caller says so: `notes_visible: false`).
 */
function stageOf(scope: Scope): RawBuilder<string> {
  const latestNote = scope.notes
    ? sql`(select n.status from public.notes n where n.org_id = v.org_id and n.visit_id = v.id
           order by n.created_at desc limit 1)`
    : sql`null::text`;
  // A coded or exported coding case (issue 13) outranks the note: the visit's work is done. Every
  // clinical role reads coding cases, so staff see "coded" too.
  return sql<string>`case
      when v.status = 'failed' then 'failed'
      when v.status in ('draft', 'recording') then 'recording'
      when v.status in ('uploaded', 'transcribing') then 'transcribing'
      when exists (select 1 from public.coding_cases c where c.org_id = v.org_id and c.visit_id = v.id
                     and c.status in ('coded', 'exported')) then 'coded'
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
  /** Coding cases (issue 13) marked coded on that day, and exported on that day. */
  coding_coded: number;
  coding_exported: number;
}

/**
 * Each event of the range as (clinician, day in the organisation's zone, figure, amount): visits
 * and their minutes by the visit's day, notes by their signature's day, coding cases by the day
 * they were coded and the day they were exported. One index range scan per source, bucketed by
 * `at time zone` (PostgreSQL's tz database: 23- and 25-hour days come out right), so a year costs
 * one pass instead of a subquery per day and figure.
 */
function rangeEvents(scope: Scope, range: DashboardRange): RawBuilder<unknown> {
  const from = range.start.toISOString();
  const to = range.end.toISOString();
  const day = (column: RawBuilder<unknown>) => sql`to_char(${column} at time zone ${range.timezone}, 'YYYY-MM-DD')`;
  const signed = scope.notes
    ? sql`union all
      select v.clinician_id, ${day(sql`n.signed_at`)}, 0, 0::float8, 1, 0, 0
      from public.notes n join public.visits v on v.org_id = n.org_id and v.id = n.visit_id
      where n.org_id = ${scope.orgId} and n.signed_at >= ${from}::timestamptz and n.signed_at < ${to}::timestamptz
        ${clinicianFilter("v", scope)}`
    : sql``;
  const coding = (column: "coded_at" | "exported_at", coded: number, exported: number) => sql`union all
      select v.clinician_id, ${day(sql.ref(`c.${column}`))}, 0, 0::float8, 0, ${sql.lit(coded)}, ${sql.lit(exported)}
      from public.coding_cases c join public.visits v on v.org_id = c.org_id and v.id = c.visit_id
      where c.org_id = ${scope.orgId} and ${sql.ref(`c.${column}`)} >= ${from}::timestamptz
        and ${sql.ref(`c.${column}`)} < ${to}::timestamptz ${clinicianFilter("v", scope)}`;
  return sql`
    select v.clinician_id, ${day(sql`v.created_at`)} as day, 1 as visits, coalesce(v.audio_duration_ms, 0)::float8 as ms,
      0 as signed, 0 as coded, 0 as exported
    from public.visits v
    where v.org_id = ${scope.orgId} and v.created_at >= ${from}::timestamptz and v.created_at < ${to}::timestamptz
      ${clinicianFilter("v", scope)}
    ${signed}
    ${coding("coded_at", 1, 0)}
    ${coding("exported_at", 0, 1)}`;
}

interface Totals {
  visits: number;
  ms: string | number;
  signed: number;
  coded: number;
  exported: number;
}

// Tenths of a minute: a chart reads minutes, a short visit still shows.
const minutes = (ms: string | number) => Math.round(Number(ms) / 6000) / 10;

export interface RangeFigures {
  series: DayFigures[];
  per_clinician: ClinicianFigures[];
}

/**
 * Per day of the range (every day present) and per clinician (visits without a clinician under
 * null, busiest first): visits, recorded minutes, notes signed, coding cases coded and exported.
 * One pass over the events, two groupings.
 */
export async function rangeFigures(trx: ActorTransaction, scope: Scope, range: DashboardRange): Promise<RangeFigures> {
  const { rows } = await sql<Totals & { day: string | null; clinician_id: string | null; by_day: boolean }>`
    select day, clinician_id, grouping(clinician_id) = 1 as by_day, sum(visits)::int as visits, sum(ms)::float8 as ms,
      sum(signed)::int as signed, sum(coded)::int as coded, sum(exported)::int as exported
    from (${rangeEvents(scope, range)}) e
    group by grouping sets ((day), (clinician_id))`.execute(trx);
  const figures = (r: Totals | undefined) => ({
    visits: r?.visits ?? 0,
    recorded_minutes: minutes(r?.ms ?? 0),
    notes_signed: scope.notes ? (r?.signed ?? 0) : null,
    coding_coded: r?.coded ?? 0,
    coding_exported: r?.exported ?? 0,
  });
  const byDay = new Map(rows.filter((r) => r.by_day).map((r) => [r.day, r]));
  return {
    series: range.days.map(({ day }) => ({ date: day, ...figures(byDay.get(day)) })),
    per_clinician: rows
      .filter((r) => !r.by_day)
      .sort((x, y) => y.visits - x.visits || (x.clinician_id ?? "").localeCompare(y.clinician_id ?? ""))
      .map((r) => ({ clinician_id: r.clinician_id, ...figures(r) })),
  };
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

export interface ClinicianFigures {
  clinician_id: string | null;
  visits: number;
  recorded_minutes: number;
  notes_signed: number | null;
  coding_coded: number;
  coding_exported: number;
}
