import { sql } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { RequestMeta } from "./context.server.ts";

/**
 * Reads of patient data the audit log records (issue 17, HIPAA §164.312(b) audit controls): who
 * read what and when, not only who changed it. One row per request, never one per row of a list.
 */
export const READ_AUDIT_ACTIONS = [
  "patient.read",
  "visit.read",
  "visit.audio_read",
  "note.read",
  "note.pdf",
  "rag.ask",
  "rag.search",
  "rag.source",
  "coding.case_read",
  "perio_exam.read",
  "perio_exam.pdf",
] as const;
export type ReadAuditAction = (typeof READ_AUDIT_ACTIONS)[number];

/** At most this many source references on a records answer's row: enough to trace, bounded in size. */
export const READ_AUDIT_MAX_REFS = 20;

/** Who read: the service arguments every read already has (organisation and actor from the server side). */
export interface ReadAuditReader {
  orgId: string;
  actor: { userId: string };
  meta?: RequestMeta;
}

export interface ReadAuditEntry {
  action: ReadAuditAction;
  entity: "patient" | "visit" | "note" | "perio_exam" | "coding_case" | "records";
  /** The record read; null for a records question, which reads many (their references go in details). */
  entityId: string | null;
  /** Whose data it is, when the caller already knows it. */
  patientId?: string | null;
  /** Otherwise the visit it belongs to: the patient is looked up inside the same INSERT. */
  visitId?: string;
  details?: Record<string, unknown>;
}

/**
 * Appends one read entry in the caller's transaction, as the actor (the audit_log_insert policy
 * checks membership and that the actor is the signed-in user). It is one more statement on the
 * connection the read already holds, not a new transaction, so a page load pays a single INSERT;
 * and the entry commits only when the read did, so a refused read leaves no row.
 */
export async function recordRead(trx: ActorTransaction, reader: ReadAuditReader, entry: ReadAuditEntry): Promise<void> {
  // The patient id lives in details (the log's schema predates reads); a visit names it in SQL.
  const patient =
    entry.patientId !== undefined
      ? sql`${entry.patientId}::text`
      : entry.visitId
        ? sql`(select v.patient_id::text from public.visits v where v.org_id = ${reader.orgId} and v.id = ${entry.visitId})`
        : sql`null::text`;
  await trx
    .insertInto("audit_log")
    .values({
      org_id: reader.orgId,
      actor_id: reader.actor.userId,
      action: entry.action,
      entity: entry.entity,
      entity_id: entry.entityId,
      ip: reader.meta?.ip ?? null,
      user_agent: reader.meta?.userAgent?.slice(0, 512) ?? null,
      details: sql<
        Record<string, unknown>
      >`jsonb_strip_nulls(jsonb_build_object('patient_id', ${patient}) || ${JSON.stringify(entry.details ?? {})}::jsonb)`,
    })
    .execute();
}

/** Distinct values, first seen first, at most READ_AUDIT_MAX_REFS: the references a list read keeps. */
export function auditRefs(values: Iterable<string | null | undefined>): string[] {
  const out = new Set<string>();
  for (const value of values) {
    if (value) out.add(value);
    if (out.size >= READ_AUDIT_MAX_REFS) break;
  }
  return [...out];
}
