import { sql } from "kysely";
import { recordAudit } from "#app/services/orgs/audit.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs, requireMemberRole, requireRole } from "#app/services/orgs/context.server.ts";
import { dayInZone } from "#app/utils/zoned-time.ts";
import { CODING_READ_ROLES } from "../access.server.ts";
import { toothForFhir } from "../procedures/teeth.ts";
import { loadCase, loadLines } from "./cases.server.ts";
import { codingErrors } from "./errors.server.ts";
import type { LineRow } from "./view.server.ts";

export interface ExportContext {
  caseId: string;
  visitId: string;
  /** The visit's day in the organisation's time zone. */
  visitDate: string;
  codedDate: string | null;
  patientId: string;
  patientExternalId: string | null;
  clinicianId: string | null;
  clinicianName: string | null;
  lines: LineRow[];
}

const SYSTEM_URI: Record<string, string> = {
  icd10cm: "http://hl7.org/fhir/sid/icd-10-cm",
  hcpcs: "https://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets",
  cpt: "http://www.ama-assn.org/go/cpt",
  cdt: "http://www.ada.org/cdt",
};

const csvField = (v: string | number | null) => {
  const s = v === null ? "" : String(v);
  // A leading =, +, - or @ would run as a formula in a spreadsheet, and so would one after a
  // leading tab or carriage return (spreadsheets strip them, OWASP "CSV injection"): prefix a quote.
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) || safe !== s ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** One line per accepted code; diagnosis pointers as 1-based positions among the accepted diagnoses. */
export function toCsv(ctx: ExportContext): string {
  const header = [
    "case_id",
    "visit_id",
    "visit_date",
    "coded_date",
    "patient_external_id",
    "rendering_clinician",
    "line",
    "kind",
    "system",
    "code",
    "description",
    "modifiers",
    "units",
    "diagnosis_pointers",
    "tooth",
    "surfaces",
  ];
  const accepted = ctx.lines.filter((l) => l.state === "accepted");
  const rows = accepted.map((l, i) =>
    [
      ctx.caseId,
      ctx.visitId,
      ctx.visitDate,
      ctx.codedDate,
      ctx.patientExternalId,
      ctx.clinicianName ?? ctx.clinicianId,
      i + 1,
      l.kind,
      l.system,
      l.code,
      l.description,
      l.modifiers.join(" "),
      l.units,
      pointerLabels(l, accepted).join(" "),
      l.tooth,
      l.surfaces,
    ]
      .map(csvField)
      .join(","),
  );
  return `${[header.join(","), ...rows].join("\r\n")}\r\n`;
}

function pointerLabels(line: LineRow, accepted: LineRow[]): number[] {
  const dx = accepted.filter((l) => l.kind === "diagnosis");
  return line.pointers.map((p) => dx.findIndex((d) => d.position === p) + 1).filter((n) => n > 0);
}

/** FHIR R4: a collection Bundle with one Condition per accepted diagnosis and a Claim with the procedure lines. */
export function toFhir(ctx: ExportContext): object {
  const accepted = ctx.lines.filter((l) => l.state === "accepted");
  const dx = accepted.filter((l) => l.kind === "diagnosis");
  const px = accepted.filter((l) => l.kind === "procedure");
  const patient = {
    reference: `Patient/${ctx.patientId}`,
    ...(ctx.patientExternalId ? { identifier: { value: ctx.patientExternalId } } : {}),
  };
  const coding = (l: LineRow) => ({ coding: [{ system: SYSTEM_URI[l.system], code: l.code, display: l.description }] });
  const conditions = dx.map((l) => ({
    fullUrl: `urn:uuid:${l.id}`,
    resource: {
      resourceType: "Condition",
      id: l.id,
      clinicalStatus: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/condition-clinical", code: "active" }] },
      verificationStatus: {
        coding: [{ system: "http://terminology.hl7.org/CodeSystem/condition-ver-status", code: "confirmed" }],
      },
      category: [
        { coding: [{ system: "http://terminology.hl7.org/CodeSystem/condition-category", code: "encounter-diagnosis" }] },
      ],
      code: coding(l),
      subject: patient,
      encounter: { reference: `Encounter/${ctx.visitId}` },
      recordedDate: ctx.visitDate,
    },
  }));
  const claim = {
    fullUrl: `urn:uuid:${ctx.caseId}`,
    resource: {
      resourceType: "Claim",
      id: ctx.caseId,
      status: "draft",
      type: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/claim-type", code: "professional" }] },
      use: "claim",
      patient,
      created: ctx.codedDate ?? ctx.visitDate,
      provider: ctx.clinicianId
        ? { reference: `Practitioner/${ctx.clinicianId}`, ...(ctx.clinicianName ? { display: ctx.clinicianName } : {}) }
        : { display: "unknown" },
      priority: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/processpriority", code: "normal" }] },
      insurance: [{ sequence: 1, focal: true, coverage: { display: "to be completed by the billing system" } }],
      diagnosis: dx.map((l, i) => ({ sequence: i + 1, diagnosisCodeableConcept: coding(l) })),
      item: px.map((l, i) => ({
        sequence: i + 1,
        productOrService: coding(l),
        ...(l.modifiers.length ? { modifier: l.modifiers.map((m) => ({ coding: [{ code: m }] })) } : {}),
        quantity: { value: l.units },
        ...(l.pointers.length ? { diagnosisSequence: pointerLabels(l, accepted) } : {}),
        servicedDate: ctx.visitDate,
        ...(l.tooth
          ? { bodySite: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/ex-tooth", code: toothForFhir(l.tooth) }] } }
          : {}),
        ...(l.surfaces
          ? {
              subSite: [...l.surfaces].map((s) => ({
                coding: [{ system: "http://terminology.hl7.org/CodeSystem/FDI-surface", code: s }],
              })),
            }
          : {}),
      })),
    },
  };
  return { resourceType: "Bundle", type: "collection", entry: [...conditions, claim] };
}

/**
 * POST /api/coding/cases/:id/export?format=csv|fhir (every role that reads cases): a coded case's
 * accepted lines; the first export moves the case to exported. 409 case_not_coded while open.
 */
export async function exportCase(
  args: OrgServiceArgs & { orgId: string; caseId: string; format: "csv" | "fhir" },
): Promise<{ body: string; contentType: string; filename: string }> {
  checkOrgId(args.orgId);
  const ctx = await asActor(args, args.orgId, async (trx) => {
    requireRole(await requireMemberRole(trx, args.orgId, args.actor.userId), CODING_READ_ROLES);
    const row = await loadCase(trx, args.orgId, args.caseId, true);
    if (row.status === "open") throw codingErrors.caseNotCoded();
    const { rows } = await sql<{ created_at: Date; clinician_id: string | null; external_id: string | null; timezone: string }>`
      select v.created_at, v.clinician_id, p.external_id, o.timezone
      from public.visits v join public.patients p on p.org_id = v.org_id and p.id = v.patient_id
      join public.organizations o on o.id = v.org_id
      where v.org_id = ${args.orgId} and v.id = ${row.visit_id}`.execute(trx);
    const visit = rows[0];
    const clinicianId = visit?.clinician_id ?? null;
    const directory = clinicianId
      ? (
          await sql<{ user_id: string; email: string | null; full_name: string | null }>`
          select user_id, email, full_name from public.org_member_directory(${args.orgId}::uuid)`.execute(trx)
        ).rows.find((m) => m.user_id === clinicianId)
      : undefined;
    const tz = visit?.timezone ?? "UTC";
    if (row.status === "coded") {
      await trx
        .updateTable("coding_cases")
        .set({ status: "exported", exported_at: new Date(), exported_by: args.actor.userId })
        .where("org_id", "=", args.orgId)
        .where("id", "=", row.id)
        .execute();
    }
    await recordAudit(trx, {
      orgId: args.orgId,
      actorId: args.actor.userId,
      action: "coding.case_exported",
      entity: "coding_case",
      entityId: row.id,
      // The export is also a read of the patient's record (issue 17): whose, for the trail.
      details: { format: args.format, patient_id: row.patient_id },
      meta: args.meta,
    });
    return {
      caseId: row.id,
      visitId: row.visit_id,
      visitDate: visit ? dayInZone(visit.created_at, tz) : "",
      codedDate: row.coded_at ? dayInZone(row.coded_at, tz) : null,
      patientId: row.patient_id,
      patientExternalId: visit?.external_id ?? null,
      clinicianId,
      clinicianName: directory?.full_name || directory?.email || null,
      lines: await loadLines(trx, args.orgId, row.id),
    } satisfies ExportContext;
  });
  return args.format === "csv"
    ? { body: toCsv(ctx), contentType: "text/csv; charset=utf-8", filename: `coding-${ctx.caseId}.csv` }
    : {
        body: JSON.stringify(toFhir(ctx), null, 2),
        contentType: "application/fhir+json; charset=utf-8",
        filename: `coding-${ctx.caseId}.json`,
      };
}
