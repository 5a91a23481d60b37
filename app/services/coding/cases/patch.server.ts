import type { ActorTransaction } from "#app/db/actor.server.ts";
import { recordAudit } from "#app/services/orgs/audit.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs, requireMemberRole, requireRole } from "#app/services/orgs/context.server.ts";
import { CODING_ROLES } from "../access.server.ts";
import { orgCode } from "../import/org-codes.server.ts";
import { loadCase, loadLines, tableFor } from "./cases.server.ts";
import { codingErrors } from "./errors.server.ts";
import type { CasePatch, LineOperation } from "./types.ts";
import { type CaseRow, type CodingCaseView, caseView, type LineRow } from "./view.server.ts";

export type { CasePatch, LineOperation };

type PatchArgs = OrgServiceArgs & { orgId: string; caseId: string };

function findLine(lines: LineRow[], id: string): LineRow {
  const line = lines.find((l) => l.id === id);
  if (!line) throw codingErrors.lineNotFound();
  return line;
}

/** A code of the line's system, billable, with its official title (CPT/CDT: the organisation's imported version). */
async function checkedCode(
  trx: ActorTransaction,
  orgId: string,
  system: string,
  code: string,
): Promise<{ code: string; description: string }> {
  if (system === "cpt" || system === "cdt") {
    const found = await orgCode(trx, orgId, system, code);
    if (!found) throw codingErrors.unknownCode(code);
    return found;
  }
  const entry = tableFor(system).get(code);
  if (!entry) throw codingErrors.unknownCode(code);
  if (!entry.billable) throw codingErrors.notBillable(entry.code);
  return { code: entry.code, description: entry.title };
}

/**
 * PATCH /api/coding/cases/:id (owners and clinicians): accept, reject (with a reason), edit the code
 * of, add, or update (modifiers, units, diagnosis pointers, tooth, surfaces) lines, then optionally
 * mark the case coded (every suggestion decided, at least one diagnosis accepted) or reopen it.
 * Each operation writes one audit row; all of them commit together or not at all.
 */
export async function patchCase(args: PatchArgs & { patch: CasePatch }): Promise<CodingCaseView> {
  checkOrgId(args.orgId);
  return asActor(args, args.orgId, async (trx) => {
    requireRole(await requireMemberRole(trx, args.orgId, args.actor.userId), CODING_ROLES);
    let row = await loadCase(trx, args.orgId, args.caseId, true);
    const ops = args.patch.operations ?? [];
    if (row.status === "exported" && (ops.length > 0 || args.patch.status === "coded")) throw codingErrors.caseExported();
    const lines = await loadLines(trx, args.orgId, row.id);
    for (const op of ops) await applyOperation(trx, args, row, lines, op);
    const after = await loadLines(trx, args.orgId, row.id);
    let status = row.status;
    if (args.patch.status === "coded") {
      if (after.some((l) => l.state === "suggested")) throw codingErrors.linesPending();
      if (!after.some((l) => l.state === "accepted" && l.kind === "diagnosis")) throw codingErrors.nothingAccepted();
      status = "coded";
    } else if (args.patch.status === "open" || (ops.length > 0 && row.status === "coded")) {
      status = "open";
    }
    if (status !== row.status) {
      row = await trx
        .updateTable("coding_cases")
        .set(status === "coded" ? { status, coded_at: new Date(), coded_by: args.actor.userId } : { status })
        .where("org_id", "=", args.orgId)
        .where("id", "=", row.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      if (status === "coded") {
        await audit(trx, args, row, "coding.case_coded", {
          accepted: after.filter((l) => l.state === "accepted").map((l) => l.code),
          rejected: after.filter((l) => l.state === "rejected").length,
        });
      } else {
        await audit(trx, args, row, "coding.case_reopened", {});
      }
    }
    return caseView(row, after);
  });
}

function audit(
  trx: ActorTransaction,
  args: PatchArgs,
  row: CaseRow,
  action:
    | "coding.line_accepted"
    | "coding.line_rejected"
    | "coding.line_edited"
    | "coding.line_added"
    | "coding.line_updated"
    | "coding.case_coded"
    | "coding.case_reopened",
  details: Record<string, unknown>,
) {
  return recordAudit(trx, {
    orgId: args.orgId,
    actorId: args.actor.userId,
    action,
    entity: "coding_case",
    entityId: row.id,
    details,
    meta: args.meta,
  });
}

async function applyOperation(
  trx: ActorTransaction,
  args: PatchArgs,
  row: CaseRow,
  lines: LineRow[],
  op: LineOperation,
): Promise<void> {
  const decided = { decided_by: args.actor.userId, decided_at: new Date() };
  const update = (id: string) =>
    trx.updateTable("coding_lines").where("org_id", "=", args.orgId).where("case_id", "=", row.id).where("id", "=", id);
  if (op.op === "add") {
    const { code, description } = await checkedCode(trx, args.orgId, op.system, op.code);
    if (lines.some((l) => l.system === op.system && l.code === code)) throw codingErrors.duplicateLine(code);
    const inserted = await trx
      .insertInto("coding_lines")
      .values({
        org_id: args.orgId,
        case_id: row.id,
        position: lines.reduce((m, l) => Math.max(m, l.position + 1), 0),
        kind: op.system === "icd10cm" ? "diagnosis" : "procedure",
        system: op.system,
        code,
        description,
        state: "accepted",
        origin: "manual",
        evidence: "[]",
        ...decided,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    lines.push(inserted);
    await audit(trx, args, row, "coding.line_added", { line_id: inserted.id, system: op.system, code });
    return;
  }
  const line = findLine(lines, op.line_id);
  if (op.op === "accept") {
    await update(line.id)
      .set({ state: "accepted", reject_reason: null, ...decided })
      .execute();
    await audit(trx, args, row, "coding.line_accepted", { line_id: line.id, code: line.code });
  } else if (op.op === "reject") {
    await update(line.id)
      .set({ state: "rejected", reject_reason: op.reason.trim(), ...decided })
      .execute();
    await audit(trx, args, row, "coding.line_rejected", { line_id: line.id, code: line.code, reason: op.reason.trim() });
  } else if (op.op === "edit") {
    const { code, description } = await checkedCode(trx, args.orgId, line.system, op.code);
    if (code !== line.code && lines.some((l) => l.system === line.system && l.code === code))
      throw codingErrors.duplicateLine(code);
    await update(line.id)
      .set({
        code,
        description,
        state: "accepted",
        reject_reason: null,
        suggested_code: line.suggested_code ?? (line.origin === "engine" ? line.code : null),
        ...decided,
      })
      .execute();
    await audit(trx, args, row, "coding.line_edited", { line_id: line.id, from: line.code, to: code });
    line.code = code;
  } else {
    await update(line.id)
      .set({
        ...(op.modifiers !== undefined ? { modifiers: op.modifiers } : {}),
        ...(op.units !== undefined ? { units: op.units } : {}),
        ...(op.pointers !== undefined ? { pointers: op.pointers } : {}),
        ...(op.tooth !== undefined ? { tooth: op.tooth } : {}),
        ...(op.surfaces !== undefined ? { surfaces: op.surfaces } : {}),
      })
      .execute();
    await audit(trx, args, row, "coding.line_updated", { line_id: line.id, code: line.code });
  }
}
