import { sql } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { QualityScope } from "./quality.server.ts";
import type { DashboardRange } from "./range.ts";

// Issue 16 "Quality telemetry": how coders treat the coding engine's suggestions (issue 13), from
// the decisions coding_lines already keep. Read from the cases coded in the range (coded_at, the
// moment every line of a case is decided), scoped to the visit's clinician like the note figures.

export interface CodingQuality {
  cases_coded: number;
  /** Lines the engine proposed, by what the coder did with them. */
  suggested: number;
  accepted: number;
  /** Accepted with another code than the engine's (suggested_code keeps the engine's). */
  edited: number;
  rejected: number;
  /** Lines a coder added by search: what the engine missed. */
  added: number;
  /** Accepted unchanged / suggested (null with nothing suggested). */
  acceptance_rate: number | null;
}

export interface RejectReason {
  reason: string;
  count: number;
}

const codedIn = (scope: QualityScope, range: DashboardRange) => sql`
  from public.coding_cases c
  join public.visits v on v.org_id = c.org_id and v.id = c.visit_id
  join public.coding_lines l on l.org_id = c.org_id and l.case_id = c.id
  where c.org_id = ${scope.orgId} and c.status in ('coded', 'exported')
    and c.coded_at >= ${range.start.toISOString()}::timestamptz and c.coded_at < ${range.end.toISOString()}::timestamptz
    ${scope.clinicianId ? sql`and v.clinician_id = ${scope.clinicianId}::uuid` : sql``}`;

export async function codingQuality(trx: ActorTransaction, scope: QualityScope, range: DashboardRange): Promise<CodingQuality> {
  const { rows } = await sql<Omit<CodingQuality, "acceptance_rate">>`
    select count(distinct c.id)::int as cases_coded,
      count(*) filter (where l.origin = 'engine')::int as suggested,
      count(*) filter (where l.origin = 'engine' and l.state = 'accepted' and l.suggested_code is null)::int as accepted,
      count(*) filter (where l.origin = 'engine' and l.state = 'accepted' and l.suggested_code is not null)::int as edited,
      count(*) filter (where l.origin = 'engine' and l.state = 'rejected')::int as rejected,
      count(*) filter (where l.origin = 'manual')::int as added
    ${codedIn(scope, range)}`.execute(trx);
  const r = rows[0] ?? { cases_coded: 0, suggested: 0, accepted: 0, edited: 0, rejected: 0, added: 0 };
  return { ...r, acceptance_rate: r.suggested ? Math.round((r.accepted / r.suggested) * 1000) / 1000 : null };
}

/**
 * Why suggestions were rejected, most frequent first: the coding page's reason codes, or the API's
 * free text grouped case- and space-insensitively. Free text may describe a patient: the page
 * shows it, the privacy-preserving export counts it without the words. All of them (a coder
 * writes few distinct reasons), so the export's counts are complete.
 */
export async function rejectReasons(
  trx: ActorTransaction,
  scope: QualityScope,
  range: DashboardRange,
  limit = 100,
): Promise<RejectReason[]> {
  const { rows } = await sql<RejectReason>`
    select min(btrim(l.reject_reason)) as reason, count(*)::int as count
    ${codedIn(scope, range)} and l.state = 'rejected'
    group by lower(regexp_replace(btrim(l.reject_reason), '\\s+', ' ', 'g'))
    order by 2 desc, 1
    limit ${limit}`.execute(trx);
  return rows;
}
