import { sql } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { RequestMeta } from "./context.server.ts";
import { READ_AUDIT_ACTIONS } from "./read-audit.server.ts";

/** Actions the organisation services record (issue 4: the audit log owners and admins read and filter by). */
export const ORG_AUDIT_ACTIONS = [
  "org.created",
  "org.personal_created",
  "org.updated",
  "org.plan_changed",
  "org.trial_started",
  "member.role_changed",
  "member.removed",
  "member.left",
  "invitation.created",
  "invitation.resent",
  "invitation.revoked",
  "invitation.accepted",
  "billing.checkout_started",
  // Issue 5 "Patients and visits": ids, statuses and sizes only, never a name or transcript text
  // (admins read the log but no clinical data).
  "patient.created",
  "visit.created",
  "visit.consent_recorded",
  "visit.recording_started",
  "visit.audio_uploaded",
  "visit.transcribed",
  "visit.transcription_failed",
  "visit.transcript_imported",
  "visit.deleted",
  "visit.audio_purged",
  "visit.transcription_rerun",
  "visit.transcript_edited",
  // Issue 6 "Templates": ids, scope and name only (templates hold no patient data).
  "template.created",
  "template.updated",
  "template.deleted",
  // Issue 6 notes: ids, template, versions and hashes only, never note text.
  "note.generate",
  "note.sign",
  "note.amend",
  // Issue 27: a clinician looked at a check and kept the text (check id, kind and code only).
  "note.check_acknowledged",
  // Issue 14 periodontal chart: ids, versions and counts only, never a measurement.
  "perio_exam.created",
  "perio_exam.updated",
  "perio_exam.classified",
  // Issue 13 coding: ids, codes, states and reasons only, never note text.
  "coding.case_opened",
  "coding.case_reopened",
  "coding.line_accepted",
  "coding.line_rejected",
  "coding.line_edited",
  "coding.line_added",
  "coding.line_updated",
  "coding.case_coded",
  "coding.case_exported",
  "code_system.imported",
  // Issue 17: reads of patient data (read-audit.server.ts), so the log answers "who saw this".
  ...READ_AUDIT_ACTIONS,
  // Issue 17: an owner downloaded the log (format and filters).
  "audit.exported",
] as const;
export type OrgAuditAction = (typeof ORG_AUDIT_ACTIONS)[number];

/**
 * Appends one audit_log row in the caller's transaction, as the actor (the insert policy requires
 * the actor to be a member of the organisation and the row's actor to be them), so the entry
 * commits or rolls back with the change it records.
 */
export async function recordAudit(
  trx: ActorTransaction,
  entry: {
    orgId: string;
    actorId: string;
    action: OrgAuditAction;
    entity:
      | "organization"
      | "member"
      | "invitation"
      | "patient"
      | "visit"
      | "template"
      | "note"
      | "perio_exam"
      | "coding_case"
      | "code_system";
    entityId: string;
    details?: Record<string, unknown>;
    meta?: RequestMeta;
  },
): Promise<void> {
  await trx
    .insertInto("audit_log")
    .values({
      org_id: entry.orgId,
      actor_id: entry.actorId,
      action: entry.action,
      entity: entry.entity,
      entity_id: entry.entityId,
      ip: entry.meta?.ip ?? null,
      user_agent: entry.meta?.userAgent?.slice(0, 512) ?? null,
      details: sql<Record<string, unknown>>`${JSON.stringify(entry.details ?? {})}::jsonb`,
    })
    .execute();
}
