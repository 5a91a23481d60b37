import { isUuid } from "#app/services/auth/uuid.server.ts";
import { recordAudit } from "#app/services/orgs/audit.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { AppError } from "#app/utils/app-error.ts";
import { checkNoteId, requireNoteRole } from "../access.server.ts";
import { noteErrors } from "../errors.server.ts";
import { loadNote } from "../note-rows.server.ts";
import { loadChecks, type NoteCheck } from "./checks.server.ts";

export const checkErrors = {
  checkNotFound: () => new AppError(404, "check_not_found", "This note has no such check"),
  checkResolved: () => new AppError(409, "check_resolved", "This check is already resolved"),
};

/**
 * POST /api/notes/:id/checks/:checkId {action: "acknowledge", reason?}: the clinician has looked
 * at the doubt and keeps the text (audited with the check's kind, never the note's words).
 * Acknowledging twice is harmless: the first acknowledgement stands.
 */
export async function acknowledgeCheck(
  args: OrgServiceArgs & { orgId: string; noteId: string; checkId: string; reason: string | null },
): Promise<NoteCheck> {
  checkOrgId(args.orgId);
  checkNoteId(args.noteId);
  if (!isUuid(args.checkId)) throw checkErrors.checkNotFound();
  return asActor(args, args.orgId, async (trx) => {
    await requireNoteRole(trx, args.orgId, args.actor.userId);
    const note = await loadNote(trx, args.orgId, args.noteId, { lock: true });
    if (note.status === "generating") throw noteErrors.generating();
    const check = await trx
      .selectFrom("note_checks")
      .select(["id", "kind", "code", "status"])
      .where("org_id", "=", note.org_id)
      .where("note_id", "=", note.id)
      .where("id", "=", args.checkId)
      .executeTakeFirst();
    if (!check) throw checkErrors.checkNotFound();
    if (check.status === "resolved") throw checkErrors.checkResolved();
    if (check.status === "open") {
      await trx
        .updateTable("note_checks")
        .set({ status: "acknowledged", reason: args.reason, resolved_by: args.actor.userId, resolved_at: new Date() })
        .where("org_id", "=", note.org_id)
        .where("id", "=", check.id)
        .execute();
      await recordAudit(trx, {
        orgId: note.org_id,
        actorId: args.actor.userId,
        action: "note.check_acknowledged",
        entity: "note",
        entityId: note.id,
        details: { check_id: check.id, kind: check.kind, code: check.code, with_reason: args.reason !== null },
        meta: args.meta,
      });
    }
    const checks = await loadChecks(trx, note.org_id, note.id);
    return checks.find((c) => c.id === check.id) as NoteCheck;
  });
}
