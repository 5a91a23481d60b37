import { sql } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { VisitLanguage, VisitStatus } from "#app/db/schema.ts";
import { asActor, checkOrgId, type OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { requireClinicalRole } from "#app/services/visits/access.server.ts";
import { isoDate } from "./iso-date.ts";
import type { PatientSummary } from "./patients.server.ts";

// The dashboard's lists (issue 5 "Pages to list, search and open them"): the organisation's
// patients by name, external id or date of birth, each with its latest visits, and its recent
// visits. Owners, clinicians and staff (docs/permissions.md); admins get 403 forbidden_role.

export const DIRECTORY_PAGE_SIZE = 50;
const LATEST_VISITS_PER_PATIENT = 3;
const MAX_PAGE = 10_000;

type OrgArgs = OrgServiceArgs & { orgId: string };

/** Where a visit's transcription stands, for a badge: derived from the visit's status and progress. */
export interface TranscriptionState {
  state: "none" | "queued" | "running" | "done" | "failed";
  /** 0–1 while running, when the job reported it. */
  progress: number | null;
  /** The stable code of a failure (speech or audio), for a translated reason. */
  failure_code: string | null;
}

export interface VisitListItem {
  id: string;
  title: string;
  patient_id: string;
  patient_name: string;
  clinician_name: string | null;
  language: VisitLanguage;
  status: VisitStatus;
  created_at: string;
  transcription: TranscriptionState;
}

export interface PatientListItem extends PatientSummary {
  latest_visits: VisitListItem[];
}

export interface ListPage<T> {
  items: T[];
  page: number;
  has_more: boolean;
}

function transcriptionState(status: VisitStatus, progress: number | null, failureCode: string | null): TranscriptionState {
  const state: TranscriptionState["state"] =
    status === "transcribed"
      ? "done"
      : status === "failed"
        ? "failed"
        : status === "transcribing"
          ? "running"
          : status === "uploaded"
            ? "queued"
            : "none";
  return {
    state,
    progress: state === "running" && progress !== null ? Math.min(1, Math.max(0, Number(progress))) : null,
    failure_code: state === "failed" ? failureCode : null,
  };
}

const clampPage = (page: number | undefined) => Math.min(Math.max(Math.trunc(page ?? 1) || 1, 1), MAX_PAGE);

/** `like` treats % and _ as wildcards; a search for "50%" means the characters. */
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A full date (YYYY-MM-DD) that exists in the calendar, or null. */
function calendarDate(q: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(q);
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]) ? q : null;
}

/** Members' names, for the clinician column (the directory function is readable by members only). */
async function memberNames(trx: ActorTransaction, orgId: string): Promise<Map<string, string>> {
  const { rows } = await sql<{ user_id: string; email: string | null; full_name: string | null }>`
    select user_id, email, full_name from public.org_member_directory(${orgId}::uuid)`.execute(trx);
  return new Map(rows.map((r) => [r.user_id, r.full_name?.trim() || r.email || ""]));
}

type VisitRow = {
  id: string;
  title: string;
  patient_id: string;
  patient_name: string;
  clinician_id: string | null;
  language: VisitLanguage;
  status: VisitStatus;
  created_at: Date;
  transcription_progress: number | null;
  failure_code: string | null;
};

function toVisitItem(row: VisitRow, names: Map<string, string>): VisitListItem {
  return {
    id: row.id,
    title: row.title,
    patient_id: row.patient_id,
    patient_name: row.patient_name,
    clinician_name: row.clinician_id ? (names.get(row.clinician_id) ?? null) : null,
    language: row.language,
    status: row.status,
    created_at: new Date(row.created_at).toISOString(),
    transcription: transcriptionState(row.status, row.transcription_progress, row.failure_code),
  };
}

function visitsQuery(trx: ActorTransaction, orgId: string) {
  return trx
    .selectFrom("visits as v")
    .innerJoin("patients as p", (join) => join.onRef("p.id", "=", "v.patient_id").onRef("p.org_id", "=", "v.org_id"))
    .select([
      "v.id",
      "v.title",
      "v.patient_id",
      "p.display_name as patient_name",
      "v.clinician_id",
      "v.language",
      "v.status",
      "v.created_at",
      "v.transcription_progress",
      "v.failure_code",
    ])
    .where("v.org_id", "=", orgId);
}

/**
 * The organisation's patients matching `q` — any part of the name, the start of the external id
 * (both case-insensitive), or the date of birth when q is a date (YYYY-MM-DD) — or, without q,
 * the newest; 50 a page, each with its three latest visits.
 */
export function findPatients(args: OrgArgs & { q?: string; page?: number }): Promise<ListPage<PatientListItem>> {
  checkOrgId(args.orgId);
  const page = clampPage(args.page);
  const q = (args.q ?? "").trim().toLowerCase().slice(0, 200);
  return asActor(args, args.orgId, async (trx) => {
    await requireClinicalRole(trx, args.orgId, args.actor.userId);
    let query = trx
      .selectFrom("patients")
      .select(["id", "display_name", "date_of_birth", "sex", "external_id", "created_at"])
      .where("org_id", "=", args.orgId);
    if (q) {
      const date = calendarDate(q);
      const pattern = likeEscape(q);
      query = query.where((eb) =>
        eb.or([
          eb(eb.fn("lower", ["display_name"]), "like", `%${pattern}%`),
          eb(eb.fn("lower", ["external_id"]), "like", `${pattern}%`),
          ...(date ? [eb("date_of_birth", "=", date)] : []),
        ]),
      );
      query = query.orderBy((eb) => eb.fn("lower", ["display_name"])).orderBy("created_at", "desc");
    } else {
      query = query.orderBy("created_at", "desc");
    }
    const rows = await query
      .orderBy("id")
      .limit(DIRECTORY_PAGE_SIZE + 1)
      .offset((page - 1) * DIRECTORY_PAGE_SIZE)
      .execute();
    const found = rows.slice(0, DIRECTORY_PAGE_SIZE);
    const latest = new Map<string, VisitListItem[]>();
    if (found.length > 0) {
      const names = await memberNames(trx, args.orgId);
      const ranked = visitsQuery(trx, args.orgId)
        .select(sql<number>`row_number() over (partition by v.patient_id order by v.created_at desc, v.id)`.as("rank"))
        .where(
          "v.patient_id",
          "in",
          found.map((p) => p.id),
        )
        .as("ranked");
      const visits = await trx
        .selectFrom(ranked)
        .selectAll()
        .where("rank", "<=", LATEST_VISITS_PER_PATIENT)
        .orderBy("created_at", "desc")
        .execute();
      for (const row of visits) {
        const list = latest.get(row.patient_id) ?? [];
        list.push(toVisitItem(row, names));
        latest.set(row.patient_id, list);
      }
    }
    return {
      items: found.map((r) => ({
        ...r,
        date_of_birth: isoDate(r.date_of_birth),
        created_at: r.created_at.toISOString(),
        latest_visits: latest.get(r.id) ?? [],
      })),
      page,
      has_more: rows.length > DIRECTORY_PAGE_SIZE,
    };
  });
}

/** The organisation's visits, newest first, 50 a page. */
export function listRecentVisits(args: OrgArgs & { page?: number }): Promise<ListPage<VisitListItem>> {
  checkOrgId(args.orgId);
  const page = clampPage(args.page);
  return asActor(args, args.orgId, async (trx) => {
    await requireClinicalRole(trx, args.orgId, args.actor.userId);
    const rows = await visitsQuery(trx, args.orgId)
      .orderBy("v.created_at", "desc")
      .orderBy("v.id")
      .limit(DIRECTORY_PAGE_SIZE + 1)
      .offset((page - 1) * DIRECTORY_PAGE_SIZE)
      .execute();
    const names = rows.length > 0 ? await memberNames(trx, args.orgId) : new Map<string, string>();
    return {
      items: rows.slice(0, DIRECTORY_PAGE_SIZE).map((r) => toVisitItem(r, names)),
      page,
      has_more: rows.length > DIRECTORY_PAGE_SIZE,
    };
  });
}
