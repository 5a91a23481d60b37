import type { ActorTransaction } from "#app/db/actor.server.ts";
import { isoDate } from "#app/services/patients/iso-date.ts";
import type { RiskFactors } from "#app/services/perio/classification.ts";
import type { PerioChartData } from "#app/services/perio/model.ts";
import { dayInZone } from "#app/utils/zoned-time.ts";
import type { NoteLanguage, NoteTemplate } from "../model.ts";
import { type ChartExam, type ConfirmedPerio, type PerioFindings, perioFindings } from "./perio-findings.ts";

// Which periodontal exam belongs to a visit (issue 14; ADR 0030): the patient's exam dated the
// visit's day in the organisation's time zone — the day the chart and the visit share, whichever
// page the exam was opened from and whether it was started before or after the recording. Several
// exams that day (a re-chart): the one changed last. No link column, so an exam charted on its own
// and a visit recorded the same day meet without anyone having to connect them.

/** The exam for the visit, or null (none that day, or the template has no periodontal section). */
export async function findVisitPerioExam(
  trx: ActorTransaction,
  ids: { orgId: string; visitId: string },
): Promise<(ChartExam & { numbering: "universal" | "fdi" }) | null> {
  const visit = await trx
    .selectFrom("visits as v")
    .innerJoin("organizations as o", "o.id", "v.org_id")
    .select(["v.patient_id", "v.created_at", "o.timezone", "o.region"])
    .where("v.org_id", "=", ids.orgId)
    .where("v.id", "=", ids.visitId)
    .executeTakeFirst();
  if (!visit) return null;
  const day = dayInZone(visit.created_at, visit.timezone);
  const row = await trx
    .selectFrom("perio_exams")
    .select(["id", "patient_id", "exam_date", "data", "risk", "confirmed"])
    .where("org_id", "=", ids.orgId)
    .where("patient_id", "=", visit.patient_id)
    .where("exam_date", "=", day)
    .orderBy("updated_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    patient_id: row.patient_id,
    exam_date: isoDate(row.exam_date) as string,
    data: row.data as PerioChartData,
    risk: (row.risk ?? {}) as RiskFactors,
    confirmed: (row.confirmed as ConfirmedPerio | null) ?? null,
    // The same rule as the chart page (page.server.ts): Universal for US organisations, FDI elsewhere.
    numbering: visit.region.toLowerCase() === "us" ? "universal" : "fdi",
  };
}

/** The chart's sentences for a note of this template, or null when the chart has nothing to give. */
export async function visitPerioFindings(
  trx: ActorTransaction,
  ids: { orgId: string; visitId: string },
  template: NoteTemplate,
  language: NoteLanguage,
): Promise<PerioFindings | null> {
  if (!template.sections.some((s) => s.kind === "periodontal")) return null;
  const exam = await findVisitPerioExam(trx, ids);
  return exam ? perioFindings(exam, language, exam.numbering) : null;
}
