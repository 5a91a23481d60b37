import type { ActorTransaction } from "#app/db/actor.server.ts";
import { isUuid } from "#app/services/auth/uuid.server.ts";
import { loadNote, sectionsOf } from "#app/services/notes/note-rows.server.ts";
import { recordAudit } from "#app/services/orgs/audit.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs, requireMemberRole, requireRole } from "#app/services/orgs/context.server.ts";
import { recordRead } from "#app/services/orgs/read-audit.server.ts";
import { CODING_READ_ROLES, CODING_ROLES } from "../access.server.ts";
import { hcpcsTable, icd10cmTable } from "../codes/registry.server.ts";
import type { CodeTable } from "../codes/table.ts";
import { applyCutoff } from "../cutoff.ts";
import { type CodingEngineEnv, codingEngine } from "../engines/registry.server.ts";
import { activeOrgCodes } from "../import/org-codes.server.ts";
import type { Suggestion } from "../model.ts";
import { indexProcedures, suggestProcedures } from "../procedures/match.ts";
import { codingProfile, PROFILE_SYSTEMS } from "../profile.ts";
import { codingErrors } from "./errors.server.ts";
import { type CaseRow, type CodingCaseView, caseView, type LineRow } from "./view.server.ts";

type CaseArgs = OrgServiceArgs & { orgId: string };

/** The note as one text: "Title\ntext" per non-empty section, blank-line separated (evidence offsets point here). */
export function noteText(content: unknown): string {
  return sectionsOf(content)
    .filter((s) => s.text.trim())
    .map((s) => `${s.title}\n${s.text}`)
    .join("\n\n");
}

export function tableFor(system: string): CodeTable {
  if (system === "icd10cm") return icd10cmTable();
  if (system === "hcpcs") return hcpcsTable();
  throw codingErrors.unsupportedSystem(system);
}

async function loadCase(trx: ActorTransaction, orgId: string, caseId: string, lock = false): Promise<CaseRow> {
  if (!isUuid(caseId)) throw codingErrors.caseNotFound();
  let q = trx.selectFrom("coding_cases").selectAll().where("org_id", "=", orgId).where("id", "=", caseId);
  if (lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  if (!row) throw codingErrors.caseNotFound();
  return row;
}

const loadLines = (trx: ActorTransaction, orgId: string, caseId: string): Promise<LineRow[]> =>
  trx
    .selectFrom("coding_lines")
    .selectAll()
    .where("org_id", "=", orgId)
    .where("case_id", "=", caseId)
    .orderBy("position")
    .execute();

async function latestVersion(trx: ActorTransaction, orgId: string, noteId: string): Promise<number | null> {
  const row = await trx
    .selectFrom("note_versions")
    .select((eb) => eb.fn.max("version").as("v"))
    .where("org_id", "=", orgId)
    .where("note_id", "=", noteId)
    .executeTakeFirst();
  return row?.v ?? null;
}

async function insertSuggestedLines(trx: ActorTransaction, row: CaseRow, suggestions: Suggestion[], existing: LineRow[]) {
  const have = new Set(existing.map((l) => `${l.system}|${l.code}`));
  let position = existing.reduce((m, l) => Math.max(m, l.position + 1), 0);
  const fresh = suggestions.filter((s) => !have.has(`${s.system}|${s.code}`));
  if (fresh.length === 0) return;
  await trx
    .insertInto("coding_lines")
    .values(
      fresh.map((s) => ({
        org_id: row.org_id,
        case_id: row.id,
        position: position++,
        kind: s.system === "icd10cm" ? ("diagnosis" as const) : ("procedure" as const),
        system: s.system,
        code: s.code,
        description: s.description,
        state: "suggested" as const,
        origin: "engine" as const,
        confidence: s.confidence,
        evidence: JSON.stringify(s.evidence),
        rationale: s.rationale.slice(0, 2000),
        ...(s.tooth ? { tooth: s.tooth } : {}),
        ...(s.surfaces ? { surfaces: s.surfaces } : {}),
      })),
    )
    .execute();
}

/** The imported CPT (medical profile) or CDT (dental profile) codes of the organisation (Settings → Organisation). */
async function profileProcedureCodes(trx: ActorTransaction, orgId: string) {
  const org = await trx.selectFrom("organizations").select("settings").where("id", "=", orgId).executeTakeFirst();
  const systems = PROFILE_SYSTEMS[codingProfile(org?.settings)];
  return {
    cpt: systems.includes("cpt") ? await activeOrgCodes(trx, orgId, "cpt") : [],
    cdt: systems.includes("cdt") ? await activeOrgCodes(trx, orgId, "cdt") : [],
  };
}

/** Procedure lines from the organisation's imported CPT and CDT (docs/coding.md "Procedure suggestions"). */
export function procedureSuggestions(
  codes: { cpt: Parameters<typeof indexProcedures>[0]; cdt: Parameters<typeof indexProcedures>[0] },
  sources: Parameters<typeof suggestProcedures>[2],
): Suggestion[] {
  return [
    ...(codes.cpt.length > 0 ? suggestProcedures("cpt", indexProcedures(codes.cpt), sources) : []),
    ...(codes.cdt.length > 0 ? suggestProcedures("cdt", indexProcedures(codes.cdt), sources) : []),
  ];
}

/**
 * POST /api/notes/:id/coding (owners and clinicians): the visit's coding case, created from its
 * signed note on the first call. A later call after the note was amended re-runs the engine on the
 * new text, adds the new suggestions, keeps every decision and reopens the case (status open,
 * reopened_at set: the page shows a notice).
 */
export async function openCaseForNote(args: CaseArgs & { noteId: string; env: CodingEngineEnv }): Promise<CodingCaseView> {
  checkOrgId(args.orgId);
  if (!isUuid(args.noteId)) throw codingErrors.caseNotFound();
  // The engine runs outside the transaction: a slow model must not hold row locks.
  const snapshot = await asActor(args, args.orgId, async (trx) => {
    requireRole(await requireMemberRole(trx, args.orgId, args.actor.userId), CODING_ROLES);
    const note = await loadNote(trx, args.orgId, args.noteId);
    if (note.status !== "signed" && note.status !== "amended") throw codingErrors.noteNotSigned();
    return {
      note,
      version: await latestVersion(trx, args.orgId, note.id),
      // The procedure code set of the organisation's profile, if imported (none: no procedure suggestions).
      procedures: await profileProcedureCodes(trx, args.orgId),
    };
  });
  const text = noteText(snapshot.note.content);
  const engine = codingEngine(args.env);
  const existing = await asActor(args, args.orgId, (trx) =>
    trx
      .selectFrom("coding_cases")
      .selectAll()
      .where("org_id", "=", args.orgId)
      .where("visit_id", "=", snapshot.note.visit_id)
      .executeTakeFirst(),
  );
  const stale = !existing || existing.note_version !== snapshot.version || existing.note_id !== snapshot.note.id;
  const sources = [{ source: "note" as const, text }];
  const suggestions = stale
    ? applyCutoff([
        // Confident suggestions only: the tail of weak candidates would drown the page (the coder adds by search).
        ...(await engine.suggest({ sources, language: snapshot.note.language, systems: ["icd10cm"], tail: false })),
        ...procedureSuggestions(snapshot.procedures, sources),
      ])
    : [];
  return asActor(args, args.orgId, async (trx) => {
    let row = await trx
      .selectFrom("coding_cases")
      .selectAll()
      .where("org_id", "=", args.orgId)
      .where("visit_id", "=", snapshot.note.visit_id)
      .forUpdate()
      .executeTakeFirst();
    if (!row) {
      row = await trx
        .insertInto("coding_cases")
        .values({
          org_id: args.orgId,
          visit_id: snapshot.note.visit_id,
          note_id: snapshot.note.id,
          patient_id: snapshot.note.patient_id,
          engine: engine.id,
          suggestions: JSON.stringify(suggestions),
          source_text: text,
          note_version: snapshot.version,
          created_by: args.actor.userId,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await insertSuggestedLines(trx, row, suggestions, []);
      await recordAudit(trx, {
        orgId: args.orgId,
        actorId: args.actor.userId,
        action: "coding.case_opened",
        entity: "coding_case",
        entityId: row.id,
        details: { note_id: row.note_id, visit_id: row.visit_id, engine: engine.id, suggestions: suggestions.length },
        meta: args.meta,
      });
    } else if (stale && (row.note_version !== snapshot.version || row.note_id !== snapshot.note.id)) {
      // The note changed since the case was coded (an amendment): new suggestions, decisions kept, reopened.
      const lines = await loadLines(trx, args.orgId, row.id);
      await insertSuggestedLines(trx, row, suggestions, lines);
      row = await trx
        .updateTable("coding_cases")
        .set({
          suggestions: JSON.stringify(suggestions),
          source_text: text,
          note_version: snapshot.version,
          status: "open",
          reopened_at: new Date(),
        })
        .where("org_id", "=", args.orgId)
        .where("id", "=", row.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        orgId: args.orgId,
        actorId: args.actor.userId,
        action: "coding.case_reopened",
        entity: "coding_case",
        entityId: row.id,
        details: { note_id: row.note_id, note_version: snapshot.version },
        meta: args.meta,
      });
    }
    return caseView(row, await loadLines(trx, args.orgId, row.id));
  });
}

/** GET /api/coding/cases/:id (owners, clinicians, admins and staff). */
export async function getCase(args: CaseArgs & { caseId: string }): Promise<CodingCaseView> {
  checkOrgId(args.orgId);
  return asActor(args, args.orgId, async (trx) => {
    requireRole(await requireMemberRole(trx, args.orgId, args.actor.userId), CODING_READ_ROLES);
    const row = await loadCase(trx, args.orgId, args.caseId);
    await recordRead(trx, args, {
      action: "coding.case_read",
      entity: "coding_case",
      entityId: row.id,
      patientId: row.patient_id,
    });
    return caseView(row, await loadLines(trx, args.orgId, row.id));
  });
}

/** The case of a visit, or null (the coding page asks before a case exists). */
export async function findCaseForVisit(args: CaseArgs & { visitId: string }): Promise<CodingCaseView | null> {
  checkOrgId(args.orgId);
  return asActor(args, args.orgId, async (trx) => {
    const row = await trx
      .selectFrom("coding_cases")
      .selectAll()
      .where("org_id", "=", args.orgId)
      .where("visit_id", "=", args.visitId)
      .executeTakeFirst();
    return row ? caseView(row, await loadLines(trx, args.orgId, row.id)) : null;
  });
}

export { loadCase, loadLines };
