import { type RawBuilder, sql } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { DashboardRange, DayBucket } from "./range.ts";
import { TODAY_STATUSES, type TodayStatus } from "./stages.ts";

export { TODAY_STATUSES, type TodayStatus };

// The dashboard's figures, each one SQL statement under the actor's row-level security (issue 16).
// The range arrives as [start, end) instants cut in the organisation's zone (range.ts), with the
// start of each of its days: events fall into the day whose [start, end) holds them, so DST days
// are 23/25 hours (migrations 0021, 0028 hold the indexes).

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

/** Up to this many days, the range's notes and cases look their visit up one by one (see visitOf). */
const PROBE_VISITS_UP_TO_DAYS = 31;

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
  medians: Medians;
}

/**
 * The range's figures and medians in one statement: per day of the range (every day present) and
 * per clinician (visits without a clinician under null, busiest first) — visits, recorded minutes,
 * notes signed, coding cases coded and exported — and the two medians.
 *
 * Why it is written this way (bench/dashboard, a year of a 10-clinician practice, ≈130,000 events;
 * ADR 0025): an event's day is the index of the day start it follows in the range's own [start, end)
 * day starts (`width_bucket` on an array cut by range.ts in the organisation's zone, so DST days are
 * 23/25 hours) — a binary search, where `to_char(at time zone)` per row cost three times the scan;
 * each source is counted by (clinician, day) before the grouping sets see it; a coding case gives
 * its coded and its exported event from one join; the notes of the range are joined to their visit
 * once for the signed counts and both medians.
 */
export async function rangeFigures(trx: ActorTransaction, scope: Scope, range: DashboardRange): Promise<RangeFigures> {
  const from = sql`${range.start.toISOString()}::timestamptz`;
  const to = sql`${range.end.toISOString()}::timestamptz`;
  const starts = sql`${range.days.map((d) => d.start.toISOString())}::timestamptz[]`;
  const inRange = (column: RawBuilder<unknown>) => sql`(${column} >= ${from} and ${column} < ${to})`;
  const bucket = (column: RawBuilder<unknown>) => sql`width_bucket(${column}, ${starts})`;
  // The visit of each note or case of the range, for its clinician. Over a month or less, one
  // index probe per row (`offset 0` keeps the subquery a per-row lookup); over longer ranges one
  // hash of the organisation's visits. Row-level security's estimate (half of the visits) makes
  // the planner hash a year of visits even for a week's 700 notes (server CPU per loader call in
  // bench/dashboard: 7 days 91 → 41 ms, 30 days 95 → 59 ms; at 90 days probing cost 206 against
  // the hash's 138, hence the month).
  const visitOf = (alias: "n" | "c") =>
    range.days.length <= PROBE_VISITS_UP_TO_DAYS
      ? sql`cross join lateral (select v.clinician_id, v.uploaded_at from public.visits v
          where v.org_id = ${sql.ref(`${alias}.org_id`)} and v.id = ${sql.ref(`${alias}.visit_id`)} offset 0) v`
      : sql`join public.visits v on v.org_id = ${sql.ref(`${alias}.org_id`)} and v.id = ${sql.ref(`${alias}.visit_id`)}`;
  const coded = sql`c.coded_at`;
  const exported = sql`c.exported_at`;
  // Notes drafted or signed in the range, with their visit's clinician and upload time. Without
  // note access the CTE is empty and the medians null (the caller says notes_visible: false).
  const notesOfRange = scope.notes
    ? sql`select v.clinician_id, n.signed_at, n.generated_at, v.uploaded_at
        from public.notes n ${visitOf("n")}
        where n.org_id = ${scope.orgId} and (${inRange(sql`n.signed_at`)} or ${inRange(sql`n.generated_at`)})
          ${clinicianFilter("v", scope)}`
    : sql`select null::uuid as clinician_id, null::timestamptz as signed_at, null::timestamptz as generated_at,
        null::timestamptz as uploaded_at where false`;
  const { rows } = await sql<
    Totals & { b: number | null; clinician_id: string | null; grouping: number; a: number | null; m: number | null }
  >`
    with notes_r as (${notesOfRange}),
    cases_r as (
      select v.clinician_id,
        case when ${inRange(coded)} then ${bucket(coded)} end as cb,
        case when ${inRange(exported)} then ${bucket(exported)} end as eb,
        count(*) as n
      from public.coding_cases c ${visitOf("c")}
      where c.org_id = ${scope.orgId} and (${inRange(coded)} or ${inRange(exported)}) ${clinicianFilter("v", scope)}
      group by 1, 2, 3
    ),
    e as (
      select v.clinician_id, ${bucket(sql`v.created_at`)} as b, count(*) as visits,
        sum(coalesce(v.audio_duration_ms, 0))::float8 as ms, 0 as signed, 0 as coded, 0 as exported
      from public.visits v
      where v.org_id = ${scope.orgId} and ${inRange(sql`v.created_at`)} ${clinicianFilter("v", scope)}
      group by 1, 2
      union all
      select clinician_id, ${bucket(sql`signed_at`)}, 0, 0, count(*), 0, 0
      from notes_r where ${inRange(sql`signed_at`)} group by 1, 2
      union all
      select clinician_id, cb, 0, 0, 0, n, 0 from cases_r where cb is not null
      union all
      select clinician_id, eb, 0, 0, 0, 0, n from cases_r where eb is not null
    )
    select b, clinician_id, grouping(b, clinician_id)::int as grouping, sum(visits)::int as visits, sum(ms)::float8 as ms,
      sum(signed)::int as signed, sum(coded)::int as coded, sum(exported)::int as exported,
      (select percentile_cont(0.5) within group (order by extract(epoch from generated_at - uploaded_at))
         from notes_r where ${inRange(sql`generated_at`)} and uploaded_at is not null and generated_at >= uploaded_at)::float8 as a,
      (select percentile_cont(0.5) within group (order by extract(epoch from signed_at - generated_at))
         from notes_r where ${inRange(sql`signed_at`)} and generated_at is not null and signed_at >= generated_at)::float8 as m
    from e
    group by grouping sets ((b), (clinician_id), ())`.execute(trx);
  const figures = (r: Totals | undefined) => ({
    visits: r?.visits ?? 0,
    recorded_minutes: minutes(r?.ms ?? 0),
    notes_signed: scope.notes ? (r?.signed ?? 0) : null,
    coding_coded: r?.coded ?? 0,
    coding_exported: r?.exported ?? 0,
  });
  // grouping(): 1 = the row is per day (clinician rolled up), 2 = per clinician, 3 = the total.
  const byDay = new Map(rows.filter((r) => r.grouping === 1).map((r) => [Number(r.b), r]));
  const total = rows.find((r) => r.grouping === 3);
  const round = (v: number | null | undefined) => (v === null || v === undefined || !scope.notes ? null : Math.round(Number(v)));
  return {
    series: range.days.map(({ day }, i) => ({ date: day, ...figures(byDay.get(i + 1)) })),
    per_clinician: rows
      .filter((r) => r.grouping === 2)
      .sort((x, y) => y.visits - x.visits || (x.clinician_id ?? "").localeCompare(y.clinician_id ?? ""))
      .map((r) => ({ clinician_id: r.clinician_id, ...figures(r) })),
    medians: { stop_to_draft_s: round(total?.a), draft_to_signed_s: round(total?.m) },
  };
}

export interface Medians {
  /** Seconds from Stop (the recording reached the server) to the draft note, notes drafted in the range. */
  stop_to_draft_s: number | null;
  /** Seconds from the draft to the signature, notes signed in the range. */
  draft_to_signed_s: number | null;
}

export interface ClinicianFigures {
  clinician_id: string | null;
  visits: number;
  recorded_minutes: number;
  notes_signed: number | null;
  coding_coded: number;
  coding_exported: number;
}
