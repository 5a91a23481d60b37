import { sql } from "kysely";
import type { PatientSex, VisitLanguage, VisitStatus } from "#app/db/schema.ts";
import { NOTE_ROLES } from "#app/services/notes/access.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { recordRead } from "#app/services/orgs/read-audit.server.ts";
import { checkPatientId, requireClinicalRole } from "#app/services/visits/access.server.ts";
import { visitErrors } from "#app/services/visits/errors.server.ts";
import { isoDate } from "./iso-date.ts";

// Issue 29 "Patients": /patients/:id — the patient's identity and a timeline of their visits
// (status, note status, codes) and periodontal exams, newest first. Owners, clinicians and staff;
// staff may not read notes (docs/permissions.md), so their timeline carries no note.

/** Timeline entries shown at most; older ones are behind "older visits" (has_more). */
export const PATIENT_TIMELINE_LIMIT = 100;

export type TimelineNoteStatus = "generating" | "draft" | "failed" | "signed" | "amended";

export interface TimelineVisit {
  kind: "visit";
  id: string;
  /** The clinical day, YYYY-MM-DD. */
  date: string;
  created_at: string;
  title: string;
  language: VisitLanguage;
  status: VisitStatus;
  /** The visit's latest note; null without one, or for a reader who may not read notes. */
  note: { id: string; status: TimelineNoteStatus } | null;
  /** The coding case's codes that are not rejected, in order. */
  codes: { system: string; code: string; state: "suggested" | "accepted" }[];
}

export interface TimelinePerioExam {
  kind: "perio";
  id: string;
  date: string;
  created_at: string;
  stage: string | null;
}

export type TimelineEntry = TimelineVisit | TimelinePerioExam;

export interface PatientRecord {
  patient: {
    id: string;
    display_name: string;
    date_of_birth: string | null;
    sex: PatientSex | null;
    external_id: string | null;
    notes: string;
  };
  timeline: TimelineEntry[];
  has_more: boolean;
  canSeeNotes: boolean;
}

type Args = OrgServiceArgs & { orgId: string; patientId: string };

/** The patient page's data in one actor transaction; another organisation's patient is a 404. */
export function getPatientRecord(args: Args): Promise<PatientRecord> {
  checkOrgId(args.orgId);
  checkPatientId(args.patientId);
  return asActor(args, args.orgId, async (trx) => {
    const role = await requireClinicalRole(trx, args.orgId, args.actor.userId);
    const canSeeNotes = NOTE_ROLES.includes(role);
    const patient = await trx
      .selectFrom("patients")
      .select(["id", "display_name", "date_of_birth", "sex", "external_id", "notes"])
      .where("org_id", "=", args.orgId)
      .where("id", "=", args.patientId)
      .executeTakeFirst();
    if (!patient) throw visitErrors.patientNotFound();
    await recordRead(trx, args, { action: "patient.read", entity: "patient", entityId: patient.id, patientId: patient.id });
    const note = canSeeNotes
      ? sql`(select json_build_object('id', n.id, 'status', n.status) from public.notes n
             where n.org_id = v.org_id and n.visit_id = v.id order by n.created_at desc limit 1)`
      : sql`null::json`;
    const visits = await sql<{
      id: string;
      visit_date: Date | string | null;
      created_at: Date;
      title: string;
      language: VisitLanguage;
      status: VisitStatus;
      note: { id: string; status: TimelineNoteStatus } | null;
      codes: { system: string; code: string; state: "suggested" | "accepted" }[] | null;
    }>`
      select v.id, v.visit_date, v.created_at, v.title, v.language, v.status, ${note} as note,
        (select json_agg(json_build_object('system', l.system, 'code', l.code, 'state', l.state) order by l.position)
           from public.coding_cases c join public.coding_lines l on l.org_id = c.org_id and l.case_id = c.id
          where c.org_id = v.org_id and c.visit_id = v.id and l.state <> 'rejected') as codes
      from public.visits v
      where v.org_id = ${args.orgId} and v.patient_id = ${args.patientId}
      order by v.created_at desc, v.id
      limit ${PATIENT_TIMELINE_LIMIT + 1}`.execute(trx);
    const exams = await sql<{ id: string; exam_date: Date | string; created_at: Date; stage: string | null }>`
      select e.id, e.exam_date, e.created_at, e.confirmed ->> 'stage' as stage
      from public.perio_exams e
      where e.org_id = ${args.orgId} and e.patient_id = ${args.patientId}
      order by e.exam_date desc, e.created_at desc
      limit ${PATIENT_TIMELINE_LIMIT + 1}`.execute(trx);
    const entries: TimelineEntry[] = [
      ...visits.rows.slice(0, PATIENT_TIMELINE_LIMIT).map(
        (v): TimelineVisit => ({
          kind: "visit",
          id: v.id,
          date: isoDate(v.visit_date) ?? new Date(v.created_at).toISOString().slice(0, 10),
          created_at: new Date(v.created_at).toISOString(),
          title: v.title,
          language: v.language,
          status: v.status,
          note: v.note,
          codes: v.codes ?? [],
        }),
      ),
      ...exams.rows.slice(0, PATIENT_TIMELINE_LIMIT).map(
        (e): TimelinePerioExam => ({
          kind: "perio",
          id: e.id,
          date: isoDate(e.exam_date) ?? "",
          created_at: new Date(e.created_at).toISOString(),
          stage: e.stage,
        }),
      ),
    ];
    // Newest first by clinical day, then by when the row was made (two visits on one day).
    entries.sort((a, b) => (a.date === b.date ? b.created_at.localeCompare(a.created_at) : b.date.localeCompare(a.date)));
    return {
      patient: { ...patient, date_of_birth: isoDate(patient.date_of_birth) },
      timeline: entries.slice(0, PATIENT_TIMELINE_LIMIT),
      has_more:
        visits.rows.length > PATIENT_TIMELINE_LIMIT ||
        exams.rows.length > PATIENT_TIMELINE_LIMIT ||
        entries.length > PATIENT_TIMELINE_LIMIT,
      canSeeNotes,
    };
  });
}
