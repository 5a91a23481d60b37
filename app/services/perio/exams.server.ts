// Periodontal exams per patient (issue 14 "API"; docs/api.md "Periodontal chart"): create (blank or
// copied forward), list, read, patch with optimistic concurrency, compare. Owners, clinicians and
// staff (requireClinicalRole; 0019_perio_exams.sql enforces the same under RLS). Every write is
// audited with ids and counts only: admins read the audit log but no clinical data.

import type { ActorTransaction } from "#app/db/actor.server.ts";
import { isUuid } from "#app/services/auth/uuid.server.ts";
import { recordAudit } from "#app/services/orgs/audit.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { recordRead } from "#app/services/orgs/read-audit.server.ts";
import { isoDate } from "#app/services/patients/iso-date.ts";
import { checkPatientId, requireClinicalRole } from "#app/services/visits/access.server.ts";
import { visitErrors } from "#app/services/visits/errors.server.ts";
import { applyChanges, chartWarnings, type PerioChange } from "./changes.ts";
import { type Classification, classify, type Extent, type Grade, type RiskFactors, type Stage } from "./classification.ts";
import { compareCharts, type ExamComparison } from "./compare.ts";
import { perioErrors } from "./errors.server.ts";
import { type ApiTooth, copyForward, emptyChart, type PerioChartData, toApiTeeth } from "./model.ts";
import { type PerioSummary, summarize } from "./summary.ts";

type OrgArgs = OrgServiceArgs & { orgId: string };

export type ConfirmedClassification = { stage: Stage | null; extent: Extent | null; grade: Grade | null; overridden: boolean };

export type PerioExamListItem = {
  id: string;
  exam_date: string;
  version: number;
  created_at: string;
  updated_at: string;
  summary: PerioSummary;
};

export type PerioExam = {
  id: string;
  patient_id: string;
  exam_date: string;
  version: number;
  copied_from: string | null;
  updated_at: string;
  teeth: ApiTooth[];
  summary: PerioSummary;
  warnings: ReturnType<typeof chartWarnings>;
  classification: {
    proposed: Classification;
    risk: RiskFactors;
    confirmed: ConfirmedClassification | null;
    confirmed_by: string | null;
    confirmed_at: string | null;
  };
};

type ExamRow = {
  id: string;
  patient_id: string;
  exam_date: Date | string;
  version: number;
  data: unknown;
  risk: unknown;
  confirmed: unknown;
  confirmed_by: string | null;
  confirmed_at: Date | null;
  copied_from: string | null;
  created_at: Date;
  updated_at: Date;
};

const COLUMNS = [
  "id",
  "patient_id",
  "exam_date",
  "version",
  "data",
  "risk",
  "confirmed",
  "confirmed_by",
  "confirmed_at",
  "copied_from",
  "created_at",
  "updated_at",
] as const;

function checkExamId(id: string): void {
  if (!isUuid(id)) throw perioErrors.examNotFound();
}

function toExam(row: ExamRow): PerioExam {
  const chart = row.data as PerioChartData;
  const risk = (row.risk ?? {}) as RiskFactors;
  return {
    id: row.id,
    patient_id: row.patient_id,
    exam_date: isoDate(row.exam_date) as string,
    version: row.version,
    copied_from: row.copied_from,
    updated_at: row.updated_at.toISOString(),
    teeth: toApiTeeth(chart),
    summary: summarize(chart),
    warnings: chartWarnings(chart),
    classification: {
      proposed: classify(chart, risk),
      risk,
      confirmed: (row.confirmed as ConfirmedClassification | null) ?? null,
      confirmed_by: row.confirmed_by,
      confirmed_at: row.confirmed_at?.toISOString() ?? null,
    },
  };
}

async function loadRow(trx: ActorTransaction, orgId: string, examId: string): Promise<ExamRow> {
  const row = await trx
    .selectFrom("perio_exams")
    .select(COLUMNS)
    .where("org_id", "=", orgId)
    .where("id", "=", examId)
    .executeTakeFirst();
  if (!row) throw perioErrors.examNotFound();
  return row as ExamRow;
}

async function requirePatient(trx: ActorTransaction, orgId: string, patientId: string): Promise<void> {
  const p = await trx
    .selectFrom("patients")
    .select("id")
    .where("org_id", "=", orgId)
    .where("id", "=", patientId)
    .executeTakeFirst();
  if (!p) throw visitErrors.patientNotFound();
}

/**
 * POST /api/patients/:id/perio-exams → { id }. `examDate` defaults to `today` (the organisation's
 * calendar day, computed by the caller); `copyFrom` is an exam id of the same patient or "latest".
 */
export function createPerioExam(
  args: OrgArgs & { patientId: string; examDate?: string | null; copyFrom?: string | null; today: string },
): Promise<{ id: string }> {
  checkOrgId(args.orgId);
  checkPatientId(args.patientId);
  return asActor(args, args.orgId, async (trx) => {
    await requireClinicalRole(trx, args.orgId, args.actor.userId);
    await requirePatient(trx, args.orgId, args.patientId);
    let data = emptyChart();
    let copiedFrom: string | null = null;
    if (args.copyFrom) {
      if (args.copyFrom !== "latest" && !isUuid(args.copyFrom)) throw perioErrors.copyFromNotFound();
      let q = trx
        .selectFrom("perio_exams")
        .select(["id", "data"])
        .where("org_id", "=", args.orgId)
        .where("patient_id", "=", args.patientId);
      q =
        args.copyFrom === "latest"
          ? q.orderBy("exam_date", "desc").orderBy("created_at", "desc")
          : q.where("id", "=", args.copyFrom);
      const source = await q.limit(1).executeTakeFirst();
      if (!source) throw perioErrors.copyFromNotFound();
      data = copyForward(source.data as PerioChartData);
      copiedFrom = source.id;
    }
    const { id } = await trx
      .insertInto("perio_exams")
      .values({
        org_id: args.orgId,
        patient_id: args.patientId,
        exam_date: args.examDate ?? args.today,
        data: JSON.stringify(data),
        copied_from: copiedFrom,
        created_by: args.actor.userId,
        updated_by: args.actor.userId,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      orgId: args.orgId,
      actorId: args.actor.userId,
      action: "perio_exam.created",
      entity: "perio_exam",
      entityId: id,
      details: { patient_id: args.patientId, copied_from: copiedFrom },
      meta: args.meta,
    });
    return { id };
  });
}

/** GET /api/patients/:id/perio-exams: newest first, each with its summary. */
export function listPerioExams(args: OrgArgs & { patientId: string }): Promise<PerioExamListItem[]> {
  checkOrgId(args.orgId);
  checkPatientId(args.patientId);
  return asActor(args, args.orgId, async (trx) => {
    await requireClinicalRole(trx, args.orgId, args.actor.userId);
    await requirePatient(trx, args.orgId, args.patientId);
    const rows = await trx
      .selectFrom("perio_exams")
      .select(["id", "exam_date", "version", "data", "created_at", "updated_at"])
      .where("org_id", "=", args.orgId)
      .where("patient_id", "=", args.patientId)
      .orderBy("exam_date", "desc")
      .orderBy("created_at", "desc")
      .limit(500)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      exam_date: isoDate(r.exam_date) as string,
      version: r.version,
      created_at: r.created_at.toISOString(),
      updated_at: r.updated_at.toISOString(),
      summary: summarize(r.data as PerioChartData),
    }));
  });
}

/** `readAs` names the read in the audit log: the PDF reuses this read and is logged as a PDF, once. */
export function getPerioExam(
  args: OrgArgs & { examId: string; readAs?: "perio_exam.read" | "perio_exam.pdf" },
): Promise<PerioExam> {
  checkOrgId(args.orgId);
  checkExamId(args.examId);
  return asActor(args, args.orgId, async (trx) => {
    await requireClinicalRole(trx, args.orgId, args.actor.userId);
    const row = await loadRow(trx, args.orgId, args.examId);
    const action = args.readAs ?? "perio_exam.read";
    await recordRead(trx, args, { action, entity: "perio_exam", entityId: row.id, patientId: row.patient_id });
    return toExam(row);
  });
}

export type PerioPatch = {
  version: number;
  changes?: PerioChange[];
  exam_date?: string;
  risk?: RiskFactors;
  /** Confirm (overridden false) or override the proposal; null withdraws the confirmation. */
  confirmed?: { stage: Stage | null; extent: Extent | null; grade: Grade | null } | null;
};

/**
 * PATCH /api/perio-exams/:id. The UPDATE matches the version the client read: when someone saved
 * in between, nothing is written and 409 version_conflict carries the current exam, so the client
 * shows the other person's values instead of overwriting them.
 */
export function updatePerioExam(args: OrgArgs & { examId: string; patch: PerioPatch }): Promise<PerioExam> {
  checkOrgId(args.orgId);
  checkExamId(args.examId);
  return asActor(args, args.orgId, async (trx) => {
    await requireClinicalRole(trx, args.orgId, args.actor.userId);
    const row = await loadRow(trx, args.orgId, args.examId);
    if (row.version !== args.patch.version) throw perioErrors.versionConflict(toExam(row));
    let chart = row.data as PerioChartData;
    const changes = args.patch.changes ?? [];
    if (changes.length > 0) {
      const applied = applyChanges(chart, changes);
      if (!applied.ok) throw perioErrors.invalidChanges(applied.errors);
      chart = applied.chart;
    }
    const set: Record<string, unknown> = {
      data: JSON.stringify(chart),
      version: row.version + 1,
      updated_by: args.actor.userId,
    };
    if (args.patch.exam_date) set.exam_date = args.patch.exam_date;
    const risk = args.patch.risk ?? (row.risk as RiskFactors);
    if (args.patch.risk) set.risk = JSON.stringify(args.patch.risk);
    let overridden: boolean | null = null;
    if (args.patch.confirmed !== undefined) {
      if (args.patch.confirmed === null) {
        Object.assign(set, { confirmed: null, confirmed_by: null, confirmed_at: null });
      } else {
        const proposed = classify(chart, risk);
        const c = args.patch.confirmed;
        overridden = c.stage !== proposed.stage || c.extent !== proposed.extent || c.grade !== proposed.grade;
        Object.assign(set, {
          confirmed: JSON.stringify({ ...c, overridden }),
          confirmed_by: args.actor.userId,
          confirmed_at: new Date(),
        });
      }
    }
    const updated = await trx
      .updateTable("perio_exams")
      .set(set)
      .where("org_id", "=", args.orgId)
      .where("id", "=", args.examId)
      .where("version", "=", args.patch.version)
      .returning(COLUMNS)
      .executeTakeFirst();
    // A concurrent save between our read and this UPDATE: report it like the early check.
    if (!updated) throw perioErrors.versionConflict(toExam(await loadRow(trx, args.orgId, args.examId)));
    await recordAudit(trx, {
      orgId: args.orgId,
      actorId: args.actor.userId,
      action: args.patch.confirmed !== undefined ? "perio_exam.classified" : "perio_exam.updated",
      entity: "perio_exam",
      entityId: args.examId,
      details: {
        version: updated.version,
        changes: changes.length,
        fields: [...new Set(changes.map((c) => c.field))],
        ...(args.patch.risk ? { risk_updated: true } : {}),
        ...(overridden !== null ? { overridden } : {}),
      },
      meta: args.meta,
    });
    return toExam(updated as ExamRow);
  });
}

export type PerioComparison = ExamComparison & {
  before: { id: string; exam_date: string; summary: PerioSummary };
  after: { id: string; exam_date: string; summary: PerioSummary };
};

/** GET /api/perio-exams/:id/compare?with=: the earlier exam is "before" whichever is named first. */
export function comparePerioExams(args: OrgArgs & { examId: string; withId: string }): Promise<PerioComparison> {
  checkOrgId(args.orgId);
  checkExamId(args.examId);
  checkExamId(args.withId);
  return asActor(args, args.orgId, async (trx) => {
    await requireClinicalRole(trx, args.orgId, args.actor.userId);
    const a = await loadRow(trx, args.orgId, args.examId);
    const b = await loadRow(trx, args.orgId, args.withId);
    if (a.patient_id !== b.patient_id) throw perioErrors.compareOtherPatient();
    const compared = { compared_with: b.id };
    await recordRead(trx, args, {
      action: "perio_exam.read",
      entity: "perio_exam",
      entityId: a.id,
      patientId: a.patient_id,
      details: compared,
    });
    const key = (r: ExamRow) => `${isoDate(r.exam_date)}|${r.created_at.toISOString()}`;
    const [before, after] = key(a) <= key(b) ? [a, b] : [b, a];
    const side = (r: ExamRow) => ({
      id: r.id,
      exam_date: isoDate(r.exam_date) as string,
      summary: summarize(r.data as PerioChartData),
    });
    return {
      before: side(before),
      after: side(after),
      ...compareCharts(before.data as PerioChartData, after.data as PerioChartData),
    };
  });
}
