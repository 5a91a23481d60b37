import { sql } from "kysely";
import type { NoteStatus, VisitLanguage, VisitStatus } from "#app/db/schema.ts";
import { isUuid } from "#app/services/auth/uuid.server.ts";
import { NOTE_ROLES } from "#app/services/notes/access.server.ts";
import { noteErrors } from "#app/services/notes/errors.server.ts";
import { resolveTemplateIn } from "#app/services/notes/templates/templates.server.ts";
import { recordAudit } from "#app/services/orgs/audit.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { recordRead } from "#app/services/orgs/read-audit.server.ts";
import { isoDate } from "#app/services/patients/iso-date.ts";
import type { BlobStore } from "#app/services/storage/blob-store.ts";
import { visitPrefix } from "#app/services/storage/keys.ts";
import { isValidTimeZone, todayInZone } from "#app/utils/zoned-time.ts";
import { CLINICIAN_ROLES, checkPatientId, checkVisitId, requireClinicalRole } from "./access.server.ts";
import { visitErrors } from "./errors.server.ts";
import { latestTranscription, type TranscriptionView } from "./transcripts.server.ts";
import { loadVisit, type VisitAudio, visitAudio } from "./visit-rows.server.ts";

type OrgArgs = OrgServiceArgs & { orgId: string };

export interface VisitSummary {
  id: string;
  patient_id: string;
  patient_name: string;
  clinician_id: string | null;
  title: string;
  language: VisitLanguage;
  status: VisitStatus;
  consent_at: string;
  /** Issue 12: the clinical day, YYYY-MM-DD (what citations and date filters use). */
  visit_date: string;
  created_at: string;
  audio: VisitAudio;
}

export interface VisitDetails extends VisitSummary {
  patient: { id: string; display_name: string; date_of_birth: string | null; external_id: string | null };
  consent_by: string | null;
  failure: { code: string; reason: string | null } | null;
  transcription: Omit<TranscriptionView, "source" | "model" | "created_at"> | null;
  /** Issue 29: the visit's latest note (null: none yet, or a role that may not read notes). */
  note: { id: string; status: NoteStatus } | null;
}

/**
 * POST /api/visits → { id }. Issue 5: the patient's consent is confirmed before recording can
 * start, per visit; who confirmed it and when is kept on the visit and in the audit log.
 */
export function createVisit(
  args: OrgArgs & {
    patientId: string;
    title: string;
    language: VisitLanguage;
    consent: boolean;
    clinicianId?: string | null;
    /** YYYY-MM-DD, not after today in the organisation's zone; default the creation day there. */
    visitDate?: string | null;
    /** Issue 29: the template its note is auto-drafted with; null = the default (built-in SOAP). */
    templateId?: string | null;
    now?: Date;
  },
): Promise<{ id: string }> {
  checkOrgId(args.orgId);
  if (args.consent !== true) throw visitErrors.consentRequired();
  checkPatientId(args.patientId);
  if (args.visitDate != null && !isCalendarDay(args.visitDate)) throw visitErrors.invalidVisitDate();
  return asActor(args, args.orgId, async (trx) => {
    const role = await requireClinicalRole(trx, args.orgId, args.actor.userId);
    const org = await trx.selectFrom("organizations").select("timezone").where("id", "=", args.orgId).executeTakeFirst();
    const today = todayInZone(org && isValidTimeZone(org.timezone) ? org.timezone : "UTC", args.now ?? new Date());
    if (args.visitDate != null && args.visitDate > today) throw visitErrors.futureVisitDate();
    const visitDate = args.visitDate ?? today;
    const patient = await trx
      .selectFrom("patients")
      .select("id")
      .where("org_id", "=", args.orgId)
      .where("id", "=", args.patientId)
      .executeTakeFirst();
    if (!patient) throw visitErrors.patientNotFound();
    let clinicianId: string | null = CLINICIAN_ROLES.includes(role) ? args.actor.userId : null;
    if (args.clinicianId) {
      if (!isUuid(args.clinicianId)) throw visitErrors.clinicianNotFound();
      const clinician = await trx
        .selectFrom("org_members")
        .select("user_id")
        .where("org_id", "=", args.orgId)
        .where("user_id", "=", args.clinicianId)
        .where("role", "in", CLINICIAN_ROLES)
        .executeTakeFirst();
      if (!clinician) throw visitErrors.clinicianNotFound();
      clinicianId = clinician.user_id;
    }
    // A template the actor could not generate a note with is refused now, not at transcript time.
    const templateId = args.templateId ?? null;
    if (templateId !== null && !(await resolveTemplateIn(trx, args.orgId, templateId, args.language))) {
      throw noteErrors.templateNotFound();
    }
    const now = new Date();
    const { id } = await trx
      .insertInto("visits")
      .values({
        org_id: args.orgId,
        patient_id: patient.id,
        clinician_id: clinicianId,
        title: args.title.trim(),
        language: args.language,
        consent_by: args.actor.userId,
        consent_at: now,
        visit_date: visitDate,
        note_template_id: templateId,
        created_by: args.actor.userId,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const audit = { orgId: args.orgId, actorId: args.actor.userId, entity: "visit" as const, entityId: id, meta: args.meta };
    await recordAudit(trx, {
      ...audit,
      action: "visit.created",
      details: { patient_id: patient.id, language: args.language, visit_date: visitDate, template_id: templateId },
    });
    await recordAudit(trx, {
      ...audit,
      action: "visit.consent_recorded",
      details: { patient_id: patient.id, consent_at: now.toISOString() },
    });
    return { id };
  });
}

const LIST_LIMIT_MAX = 200;

/** GET /api/visits?patient_id=&status=: newest first. */
export function listVisits(
  args: OrgArgs & { patientId?: string; status?: VisitStatus; limit?: number },
): Promise<VisitSummary[]> {
  checkOrgId(args.orgId);
  if (args.patientId !== undefined) checkPatientId(args.patientId);
  const limit = Math.min(Math.max(args.limit ?? 50, 1), LIST_LIMIT_MAX);
  return asActor(args, args.orgId, async (trx) => {
    await requireClinicalRole(trx, args.orgId, args.actor.userId);
    let query = trx
      .selectFrom("visits as v")
      .innerJoin("patients as p", (join) => join.onRef("p.id", "=", "v.patient_id").onRef("p.org_id", "=", "v.org_id"))
      .selectAll("v")
      .select("p.display_name as patient_name")
      .where("v.org_id", "=", args.orgId);
    if (args.patientId) query = query.where("v.patient_id", "=", args.patientId);
    if (args.status) query = query.where("v.status", "=", args.status);
    const rows = await query.orderBy("v.created_at", "desc").orderBy("v.id").limit(limit).execute();
    return rows.map((row) => ({
      id: row.id,
      patient_id: row.patient_id,
      patient_name: row.patient_name,
      clinician_id: row.clinician_id,
      title: row.title,
      language: row.language,
      status: row.status,
      consent_at: row.consent_at.toISOString(),
      visit_date: isoDate(row.visit_date) ?? "",
      created_at: row.created_at.toISOString(),
      audio: visitAudio(row),
    }));
  });
}

/** GET /api/visits/:id: the visit, its patient, its audio and its newest transcript version. */
export function getVisit(args: OrgArgs & { visitId: string }): Promise<VisitDetails> {
  checkOrgId(args.orgId);
  checkVisitId(args.visitId);
  return asActor(args, args.orgId, async (trx) => {
    const role = await requireClinicalRole(trx, args.orgId, args.actor.userId);
    const row = await loadVisit(trx, args.orgId, args.visitId);
    await recordRead(trx, args, { action: "visit.read", entity: "visit", entityId: row.id, patientId: row.patient_id });
    const patient = await trx
      .selectFrom("patients")
      .select(["id", "display_name", "date_of_birth", "external_id"])
      .where("org_id", "=", row.org_id)
      .where("id", "=", row.patient_id)
      .executeTakeFirstOrThrow();
    const transcript = await latestTranscription(trx, row.org_id, row.id);
    // Issue 29: the visit's latest note, so a client knows when the auto-drafted note exists.
    // Staff may not read notes (docs/permissions.md): null for them.
    const note = !NOTE_ROLES.includes(role)
      ? undefined
      : await trx
          .selectFrom("notes")
          .select(["id", "status"])
          .where("org_id", "=", row.org_id)
          .where("visit_id", "=", row.id)
          .orderBy("created_at", "desc")
          .orderBy("id")
          .limit(1)
          .executeTakeFirst();
    return {
      id: row.id,
      patient_id: row.patient_id,
      patient_name: patient.display_name,
      patient: {
        id: patient.id,
        display_name: patient.display_name,
        date_of_birth: isoDate(patient.date_of_birth),
        external_id: patient.external_id,
      },
      clinician_id: row.clinician_id,
      title: row.title,
      language: row.language,
      status: row.status,
      consent_at: row.consent_at.toISOString(),
      consent_by: row.consent_by,
      visit_date: isoDate(row.visit_date) ?? "",
      created_at: row.created_at.toISOString(),
      failure: row.failure_code ? { code: row.failure_code, reason: row.failure_reason } : null,
      audio: visitAudio(row),
      note: note ? { id: note.id, status: note.status } : null,
      transcription: transcript
        ? {
            version: transcript.version,
            status: transcript.status,
            engine: transcript.engine,
            language: transcript.language,
            text: transcript.text,
            segments: transcript.segments,
            quality: transcript.quality,
          }
        : null,
    };
  });
}

/**
 * DELETE /api/visits/:id: the visit, its chunks and transcripts (cascade), then its audio blobs.
 * The rows go first: a crash in between leaves unreferenced blobs under the visit's prefix (no
 * data anyone can reach), never a visit whose audio is gone.
 */
export async function deleteVisit(args: OrgArgs & { visitId: string; store: BlobStore }): Promise<void> {
  checkOrgId(args.orgId);
  checkVisitId(args.visitId);
  const deleted = await asActor(args, args.orgId, async (trx) => {
    const role = await requireClinicalRole(trx, args.orgId, args.actor.userId);
    const row = await loadVisit(trx, args.orgId, args.visitId, { lock: true });
    // Deleting a visit deletes its notes. Staff cannot read notes, so they may not delete a
    // clinician's draft (or signed note) unseen with it: the visit stays, 409 (issue 25).
    if (!NOTE_ROLES.includes(role)) {
      const { rows } = await sql<{ has: boolean }>`
        select public.visit_has_notes(${row.org_id}::uuid, ${row.id}::uuid) as has`.execute(trx);
      if (rows[0]?.has) throw visitErrors.visitHasNotes();
    }
    await recordAudit(trx, {
      orgId: row.org_id,
      actorId: args.actor.userId,
      action: "visit.deleted",
      entity: "visit",
      entityId: row.id,
      details: { patient_id: row.patient_id, status: row.status, audio_bytes: Number(row.audio_bytes) },
      meta: args.meta,
    });
    await trx.deleteFrom("visits").where("org_id", "=", row.org_id).where("id", "=", row.id).execute();
    return row;
  });
  await args.store.deletePrefix(visitPrefix(deleted.org_id, deleted.id));
}

/** A real calendar day from 1900 on (2024-02-30 is not one). */
export function isCalendarDay(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return value >= "1900-01-01" && date.toISOString().slice(0, 10) === value;
}
