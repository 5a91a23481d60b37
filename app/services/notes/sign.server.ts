import { recordAudit } from "#app/services/orgs/audit.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs, requireRole } from "#app/services/orgs/context.server.ts";
import { queueVocabularyRefresh } from "#app/services/speech/org-vocab/jobs.server.ts";
import { checkNoteId, requireNoteRole, SIGNING_ROLES } from "./access.server.ts";
import { loadChecks, recomputeChecks } from "./checks/checks.server.ts";
import { requireSignable } from "./checks/gate.server.ts";
import { noteContentHash } from "./content-hash.server.ts";
import { noteErrors } from "./errors.server.ts";
import { loadNote, loadVersions, type NoteView, nextVersion, noteView, sectionsOf } from "./note-rows.server.ts";
import { applyEdits, requireDraft, type SectionText } from "./notes.server.ts";
import { type DistancePairs, distancePairs, samePairs, sectionDistances } from "./section-distances.server.ts";

type NoteArgs = OrgServiceArgs & { orgId: string; noteId: string };

/**
 * POST /api/notes/:id/sign (owners and clinicians, docs/permissions.md "Signing notes"): the
 * current text becomes the immutable `signed` version with its SHA-256, and the per-section edit
 * distance between the generated draft and the signed text is stored beside it. 409
 * note_already_signed the second time (the row lock serialises two signers).
 *
 * The distances are computed before the signing transaction (on a worker thread for a long note,
 * issue 25), so neither the row lock nor the embedded database's one connection waits for them;
 * the transaction recomputes them only if the text changed in between.
 */
export async function signNote(args: NoteArgs): Promise<NoteView> {
  checkOrgId(args.orgId);
  checkNoteId(args.noteId);
  const before = await asActor(args, args.orgId, async (trx) => {
    const role = await requireNoteRole(trx, args.orgId, args.actor.userId);
    requireRole(role, SIGNING_ROLES);
    const row = await loadNote(trx, args.orgId, args.noteId);
    requireDraft(row.status);
    return distancePairs(row);
  });
  const early: { pairs: DistancePairs; distances: Record<string, number> } = {
    pairs: before,
    distances: await sectionDistances(before),
  };
  const view = await asActor(args, args.orgId, async (trx) => {
    const role = await requireNoteRole(trx, args.orgId, args.actor.userId);
    requireRole(role, SIGNING_ROLES);
    const row = await loadNote(trx, args.orgId, args.noteId, { lock: true });
    requireDraft(row.status);
    // Issue 27: no signature while a gating check is open (409 unresolved_checks).
    const kept = await requireSignable(trx, row, args.actor.userId);
    const content = sectionsOf(row.content);
    const pairs = distancePairs(row);
    const distances = samePairs(pairs, early.pairs) ? early.distances : await sectionDistances(pairs);
    const hash = noteContentHash(row.language, content);
    const version = await nextVersion(trx, row.org_id, row.id);
    const signedAt = new Date();
    await trx
      .insertInto("note_versions")
      .values({
        org_id: row.org_id,
        note_id: row.id,
        version,
        kind: "signed",
        sections: JSON.stringify(content),
        content_sha256: hash,
        author_id: args.actor.userId,
        amendment_reason: null,
        edit_distance: JSON.stringify(distances),
        checks: JSON.stringify(kept),
        created_at: signedAt,
      })
      .execute();
    await trx
      .updateTable("notes")
      .set({ status: "signed", signed_at: signedAt, signed_by: args.actor.userId, progress: null })
      .where("org_id", "=", row.org_id)
      .where("id", "=", row.id)
      .execute();
    await recordAudit(trx, {
      orgId: row.org_id,
      actorId: args.actor.userId,
      action: "note.sign",
      entity: "note",
      entityId: row.id,
      details: { visit_id: row.visit_id, version, content_sha256: hash },
      meta: args.meta,
    });
    const updated = await loadNote(trx, args.orgId, args.noteId);
    return noteView(updated, await loadVersions(trx, args.orgId, args.noteId), await loadChecks(trx, args.orgId, args.noteId));
  });
  // The signed text is the practice's vocabulary source (ADR 0032): refresh it in the background.
  await queueVocabularyRefresh(args.db, args.orgId);
  return view;
}

/**
 * POST /api/notes/:id/amendments { sections, reason }: after signing, a change is a new
 * immutable `amendment` version (author, time, reason, hash); the signed version stays as it was.
 * Same roles as signing: an amendment is signed by its author.
 */
export async function amendNote(args: NoteArgs & { sections: SectionText[]; reason: string }): Promise<NoteView> {
  checkOrgId(args.orgId);
  checkNoteId(args.noteId);
  const view = await asActor(args, args.orgId, async (trx) => {
    const role = await requireNoteRole(trx, args.orgId, args.actor.userId);
    requireRole(role, SIGNING_ROLES);
    const row = await loadNote(trx, args.orgId, args.noteId, { lock: true });
    if (row.status !== "signed" && row.status !== "amended") throw noteErrors.notSigned();
    const before = sectionsOf(row.content);
    const after = applyEdits(before, args.sections);
    const changed = after.filter((s, i) => s.text !== before[i]?.text).map((s) => s.key);
    if (!changed.length) throw noteErrors.noChange();
    const hash = noteContentHash(row.language, after);
    const version = await nextVersion(trx, row.org_id, row.id);
    await trx
      .insertInto("note_versions")
      .values({
        org_id: row.org_id,
        note_id: row.id,
        version,
        kind: "amendment",
        sections: JSON.stringify(after),
        content_sha256: hash,
        author_id: args.actor.userId,
        amendment_reason: args.reason,
      })
      .execute();
    await trx
      .updateTable("notes")
      .set({ status: "amended", content: JSON.stringify(after) })
      .where("org_id", "=", row.org_id)
      .where("id", "=", row.id)
      .execute();
    // Issue 27: the amendment's text gets its own checks (shown with the note; an amendment is not gated).
    const amended = await loadNote(trx, args.orgId, args.noteId);
    await recomputeChecks(trx, amended, args.actor.userId);
    await recordAudit(trx, {
      orgId: row.org_id,
      actorId: args.actor.userId,
      action: "note.amend",
      entity: "note",
      entityId: row.id,
      details: { visit_id: row.visit_id, version, content_sha256: hash, sections: changed },
      meta: args.meta,
    });
    return noteView(amended, await loadVersions(trx, args.orgId, args.noteId), await loadChecks(trx, args.orgId, args.noteId));
  });
  // The signed text is the practice's vocabulary source (ADR 0032): refresh it in the background.
  await queueVocabularyRefresh(args.db, args.orgId);
  return view;
}
