import { type RawBuilder, sql } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { DashboardRange } from "./range.ts";

// Issue 16 "Quality telemetry": how much clinicians change the drafts before signing, from what
// the sign-off already stores — the signed version's per-section edit distance (note_versions
// .edit_distance, Levenshtein in characters) against the draft as generated (notes.sections).
// A section's edit ratio is distance / max(draft length, signed length), in [0, 1]. A section is
// "accepted" when at most ACCEPTED_RATIO of it changed.

export const ACCEPTED_RATIO = 0.1;

export interface QualityScope {
  orgId: string;
  clinicianId: string | null;
}

export interface SectionQuality {
  template_id: string;
  section_key: string;
  signed: number;
  /** Mean edit ratio of this section over the notes signed in the range. */
  mean_edit_ratio: number;
  accepted_rate: number;
}

export interface QualityWeek {
  /** The first day (Monday) of the week, in the organisation's zone. */
  week: string;
  sections: number;
  mean_edit_ratio: number | null;
}

export interface QualitySummary {
  notes_signed: number;
  sections_signed: number;
  /** Share of signed sections changed by at most ACCEPTED_RATIO (null with nothing signed). */
  acceptance_rate: number | null;
  /** Share of signed notes whose every section was signed exactly as drafted. */
  unchanged_notes_rate: number | null;
  mean_edit_ratio: number | null;
  ratings: { count: number; mean: number | null };
  /** Omissions the draft listed (facts said but not written) on the notes signed in the range. */
  omissions_listed: number;
}

const clinicianFilter = (scope: QualityScope): RawBuilder<unknown> =>
  scope.clinicianId ? sql`and v.clinician_id = ${scope.clinicianId}::uuid` : sql``;

/**
 * One row per signed section of the notes signed in the range: its note, template, key, day,
 * distance and length. The CTE every quality figure reads.
 */
function signedSections(scope: QualityScope, range: DashboardRange): RawBuilder<unknown> {
  return sql`
    select n.id as note_id, n.template_id, s.value ->> 'key' as section_key, n.signed_at,
      coalesce((nv.edit_distance ->> (s.value ->> 'key'))::int, 0) as distance,
      greatest(char_length(s.value ->> 'text'),
        coalesce((select char_length(g.value ->> 'text') from jsonb_array_elements(n.sections) g
                  where g.value ->> 'key' = s.value ->> 'key' limit 1), 0)) as len
    from public.notes n
    join public.visits v on v.org_id = n.org_id and v.id = n.visit_id
    join public.note_versions nv on nv.org_id = n.org_id and nv.note_id = n.id and nv.kind = 'signed'
    cross join lateral jsonb_array_elements(nv.sections) s
    where n.org_id = ${scope.orgId} and n.signed_at >= ${range.start.toISOString()}::timestamptz
      and n.signed_at < ${range.end.toISOString()}::timestamptz ${clinicianFilter(scope)}`;
}

const ratio = sql`case when len = 0 then 0 else least(1.0, distance::float8 / len) end`;

export async function qualitySummary(trx: ActorTransaction, scope: QualityScope, range: DashboardRange): Promise<QualitySummary> {
  const { rows } = await sql<{
    notes: number;
    sections: number;
    accepted: number;
    unchanged: number;
    mean: number | null;
  }>`
    with s as (${signedSections(scope, range)}), per_note as (
      select note_id, bool_and(distance = 0) as unchanged from s group by note_id
    )
    select (select count(*) from per_note)::int as notes, count(*)::int as sections,
      count(*) filter (where ${ratio} <= ${ACCEPTED_RATIO})::int as accepted,
      (select count(*) from per_note where unchanged)::int as unchanged,
      avg(${ratio})::float8 as mean
    from s`.execute(trx);
  const { rows: extra } = await sql<{ rated: number; mean_rating: number | null; omissions: number }>`
    select count(n.rating)::int as rated, avg(n.rating)::float8 as mean_rating,
      coalesce(sum(jsonb_array_length(n.omissions)), 0)::int as omissions
    from public.notes n join public.visits v on v.org_id = n.org_id and v.id = n.visit_id
    where n.org_id = ${scope.orgId} and n.signed_at >= ${range.start.toISOString()}::timestamptz
      and n.signed_at < ${range.end.toISOString()}::timestamptz ${clinicianFilter(scope)}`.execute(trx);
  const r = rows[0];
  const e = extra[0];
  const round = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(v * 1000) / 1000);
  return {
    notes_signed: r?.notes ?? 0,
    sections_signed: r?.sections ?? 0,
    acceptance_rate: r?.sections ? round(r.accepted / r.sections) : null,
    unchanged_notes_rate: r?.notes ? round(r.unchanged / r.notes) : null,
    mean_edit_ratio: round(r?.mean),
    ratings: { count: e?.rated ?? 0, mean: round(e?.mean_rating) },
    omissions_listed: e?.omissions ?? 0,
  };
}

/** Per template and section, most edited first. */
export async function sectionQuality(
  trx: ActorTransaction,
  scope: QualityScope,
  range: DashboardRange,
  limit = 50,
): Promise<SectionQuality[]> {
  const { rows } = await sql<SectionQuality>`
    with s as (${signedSections(scope, range)})
    select template_id, section_key, count(*)::int as signed,
      round(avg(${ratio})::numeric, 3)::float8 as mean_edit_ratio,
      round((count(*) filter (where ${ratio} <= ${ACCEPTED_RATIO}))::numeric / count(*), 3)::float8 as accepted_rate
    from s group by template_id, section_key
    order by mean_edit_ratio desc, signed desc, template_id, section_key
    limit ${limit}`.execute(trx);
  return rows;
}

/** Mean edit ratio per week (weeks start on Monday, days cut in the organisation's zone). */
export async function qualityTrend(trx: ActorTransaction, scope: QualityScope, range: DashboardRange): Promise<QualityWeek[]> {
  const weeks = new Map<string, { start: Date; end: Date }>();
  for (const d of range.days) {
    const dow = (new Date(`${d.day}T00:00:00Z`).getUTCDay() + 6) % 7;
    const monday = new Date(Date.parse(`${d.day}T00:00:00Z`) - dow * 86_400_000).toISOString().slice(0, 10);
    const w = weeks.get(monday);
    if (w) w.end = d.end;
    else weeks.set(monday, { start: d.start, end: d.end });
  }
  if (weeks.size === 0) return [];
  const values = sql.join(
    [...weeks].map(
      ([week, w]) => sql`(${week}::text, ${w.start.toISOString()}::timestamptz, ${w.end.toISOString()}::timestamptz)`,
    ),
  );
  const { rows } = await sql<{ week: string; sections: number; mean: number | null }>`
    with s as (${signedSections(scope, range)})
    -- A week without signed sections has no mean: LEAST ignores NULLs, so least(1.0, null) would read 100 %.
    select w.week, count(s.note_id)::int as sections,
      avg(${sql`case when s.len = 0 then 0 else least(1.0, s.distance::float8 / s.len) end`}) filter (where s.note_id is not null)::float8 as mean
    from (values ${values}) as w(week, ws, we)
    left join s on s.signed_at >= w.ws and s.signed_at < w.we
    group by w.week order by w.week`.execute(trx);
  return rows.map((r) => ({
    week: r.week,
    sections: r.sections,
    mean_edit_ratio: r.mean === null ? null : Math.round(r.mean * 1000) / 1000,
  }));
}

export interface SectionExample {
  template_id: string;
  section_key: string;
  note_id: string;
  draft: string;
  signed: string;
}

/** For each of `keys`, the latest signed note in the range where that section changed: draft and signed text. */
export async function sectionExamples(
  trx: ActorTransaction,
  scope: QualityScope,
  range: DashboardRange,
  keys: { template_id: string; section_key: string }[],
): Promise<SectionExample[]> {
  const out: SectionExample[] = [];
  for (const k of keys) {
    const { rows } = await sql<SectionExample>`
      select n.template_id, s.value ->> 'key' as section_key, n.id as note_id,
        coalesce((select g.value ->> 'text' from jsonb_array_elements(n.sections) g where g.value ->> 'key' = s.value ->> 'key' limit 1), '') as draft,
        s.value ->> 'text' as signed
      from public.notes n
      join public.visits v on v.org_id = n.org_id and v.id = n.visit_id
      join public.note_versions nv on nv.org_id = n.org_id and nv.note_id = n.id and nv.kind = 'signed'
      cross join lateral jsonb_array_elements(nv.sections) s
      where n.org_id = ${scope.orgId} and n.template_id = ${k.template_id} and s.value ->> 'key' = ${k.section_key}
        and coalesce((nv.edit_distance ->> ${k.section_key})::int, 0) > 0
        and n.signed_at >= ${range.start.toISOString()}::timestamptz and n.signed_at < ${range.end.toISOString()}::timestamptz
        ${clinicianFilter(scope)}
      order by n.signed_at desc limit 1`.execute(trx);
    if (rows[0]) out.push(rows[0]);
  }
  return out;
}

export interface QualityReport {
  summary: QualitySummary;
  sections: SectionQuality[];
  trend: QualityWeek[];
}
