import { sql } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { Scope } from "./aggregates.server.ts";

// The dashboard's work queues (issue 16): what is waiting for someone, oldest first. Each queue
// lists the oldest `limit` (joined to their patient and visit) and counts all its rows apart: a
// year of a busy practice leaves thousands of drafts, and `count(*) over ()` joined every one of
// them to its patient and visit to count them (bench/dashboard). The count reads the queue's
// partial index and joins the visit only for a clinician's queue; the patient and visit joins
// cannot drop a row — foreign keys hold them, and whoever may read these rows may read both.

export interface DraftToSign {
  note_id: string;
  visit_id: string;
  patient_name: string;
  /** When the draft was written (or the note created, for a draft without a generation time). */
  since: string;
}

export interface FailedTranscription {
  visit_id: string;
  title: string;
  patient_name: string;
  failure_code: string | null;
  since: string;
}

export interface OpenCodingCase {
  case_id: string;
  note_id: string;
  visit_id: string;
  patient_name: string;
  /** When the case was opened, or reopened by an amendment. */
  since: string;
}

export interface Queues {
  drafts_to_sign: { count: number; oldest: DraftToSign[] } | null;
  /** Coding cases (issue 13) still open; null for admins, who see no clinical data here. */
  coding_open: { count: number; oldest: OpenCodingCase[] } | null;
  /** Null for admins, who see no clinical data. */
  failed_transcriptions: { count: number; oldest: FailedTranscription[] } | null;
  /** Null for members who may not read invitations (only owners and admins manage them). */
  invitations_pending: number | null;
}

const clinician = (scope: Scope) => (scope.clinicianId ? sql`and v.clinician_id = ${scope.clinicianId}::uuid` : sql``);
/** A clinician's rows of a table that points at its visit. */
const ofClinician = (scope: Scope, alias: "n" | "c") =>
  scope.clinicianId
    ? sql`and exists (select 1 from public.visits v where v.org_id = ${sql.ref(`${alias}.org_id`)} and v.id = ${sql.ref(`${alias}.visit_id`)}
            and v.clinician_id = ${scope.clinicianId}::uuid)`
    : sql``;

export async function queues(
  trx: ActorTransaction,
  scope: Scope & { clinical: boolean; manager: boolean },
  now: Date,
  limit = 10,
): Promise<Queues> {
  let drafts: Queues["drafts_to_sign"] = null;
  if (scope.notes) {
    const { rows } = await sql<DraftToSign & { since: Date | string; total: number }>`
      select n.id as note_id, n.visit_id, p.display_name as patient_name,
        coalesce(n.generated_at, n.created_at) as since,
        (select count(*) from public.notes n where n.org_id = ${scope.orgId} and n.status = 'draft' ${ofClinician(scope, "n")})::int as total
      from public.notes n
      join public.visits v on v.org_id = n.org_id and v.id = n.visit_id
      join public.patients p on p.org_id = n.org_id and p.id = n.patient_id
      where n.org_id = ${scope.orgId} and n.status = 'draft' ${clinician(scope)}
      order by n.created_at, n.id
      limit ${limit}`.execute(trx);
    drafts = { count: rows[0]?.total ?? 0, oldest: rows.map(({ total: _, ...r }) => ({ ...r, since: iso(r.since) })) };
  }
  let failed: Queues["failed_transcriptions"] = null;
  if (scope.clinical) {
    const { rows } = await sql<FailedTranscription & { since: Date | string; total: number }>`
      select v.id as visit_id, v.title, p.display_name as patient_name, v.failure_code, v.updated_at as since,
        (select count(*) from public.visits v where v.org_id = ${scope.orgId} and v.status = 'failed' ${clinician(scope)})::int as total
      from public.visits v
      join public.patients p on p.org_id = v.org_id and p.id = v.patient_id
      where v.org_id = ${scope.orgId} and v.status = 'failed' ${clinician(scope)}
      order by v.updated_at, v.id
      limit ${limit}`.execute(trx);
    failed = { count: rows[0]?.total ?? 0, oldest: rows.map(({ total: _, ...r }) => ({ ...r, since: iso(r.since) })) };
  }
  let coding: Queues["coding_open"] = null;
  if (scope.clinical) {
    const { rows } = await sql<OpenCodingCase & { since: Date | string; total: number }>`
      select c.id as case_id, c.note_id, c.visit_id, p.display_name as patient_name,
        coalesce(c.reopened_at, c.created_at) as since,
        (select count(*) from public.coding_cases c where c.org_id = ${scope.orgId} and c.status = 'open' ${ofClinician(scope, "c")})::int as total
      from public.coding_cases c
      join public.visits v on v.org_id = c.org_id and v.id = c.visit_id
      join public.patients p on p.org_id = c.org_id and p.id = c.patient_id
      where c.org_id = ${scope.orgId} and c.status = 'open' ${clinician(scope)}
      order by coalesce(c.reopened_at, c.created_at), c.id
      limit ${limit}`.execute(trx);
    coding = { count: rows[0]?.total ?? 0, oldest: rows.map(({ total: _, ...r }) => ({ ...r, since: iso(r.since) })) };
  }
  let invitations: number | null = null;
  if (scope.manager) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from public.invitations
      where org_id = ${scope.orgId} and accepted_at is null and revoked_at is null
        and expires_at > ${now.toISOString()}::timestamptz`.execute(trx);
    invitations = rows[0]?.n ?? 0;
  }
  return { drafts_to_sign: drafts, coding_open: coding, failed_transcriptions: failed, invitations_pending: invitations };
}

const iso = (value: Date | string) => new Date(value).toISOString();
