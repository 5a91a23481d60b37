import type { NoteStatus, VisitLanguage } from "#app/db/schema.ts";
import { recordAudit } from "#app/services/orgs/audit.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { recordRead } from "#app/services/orgs/read-audit.server.ts";
import { checkVisitId } from "#app/services/visits/access.server.ts";
import { latestTranscription } from "#app/services/visits/transcripts.server.ts";
import { loadVisit } from "#app/services/visits/visit-rows.server.ts";
import { checkNoteId, requireNoteRole } from "./access.server.ts";
import { loadChecks, recomputeChecks } from "./checks/checks.server.ts";
import { noteContentHash } from "./content-hash.server.ts";
import { noteErrors } from "./errors.server.ts";
import { enqueueGenerateNote } from "./jobs/enqueue.server.ts";
import type { NoteSectionDraft } from "./model.ts";
import { loadNote, loadVersions, type NoteView, nextVersion, noteView, sectionsOf, templateOf } from "./note-rows.server.ts";
import { NOTE_LIMITS } from "./note-schemas.ts";
import { reviseSection } from "./sentences.ts";
import { resolveNoteTemplate } from "./template-source.server.ts";

type NoteArgs = OrgServiceArgs & { orgId: string };

/** A section's new text, as PUT /api/notes/:id and amendments send it. */
export interface SectionText {
  key: string;
  text: string;
}

/**
 * POST /api/visits/:id/notes: a note in `generating` with a snapshot of the template, then a
 * `generate-note` job (after the commit; the row is the durable record, the sweep re-queues a
 * lost enqueue). 409 transcript_required while the visit has no transcript.
 */
export async function createNote(
  args: NoteArgs & { visitId: string; templateId: string; language?: VisitLanguage },
): Promise<{ id: string }> {
  checkOrgId(args.orgId);
  checkVisitId(args.visitId);
  const visit = await asActor(args, args.orgId, async (trx) => {
    await requireNoteRole(trx, args.orgId, args.actor.userId);
    const row = await loadVisit(trx, args.orgId, args.visitId);
    const transcript = await latestTranscription(trx, args.orgId, args.visitId);
    if (!transcript) throw noteErrors.transcriptRequired();
    if (transcript.text.length > NOTE_LIMITS.transcriptChars) throw noteErrors.transcriptTooLong(NOTE_LIMITS.transcriptChars);
    return row;
  });
  const language = args.language ?? visit.language;
  const template = await resolveNoteTemplate(args, args.templateId, language);
  if (!template) throw noteErrors.templateNotFound();
  const id = await asActor(args, args.orgId, async (trx) => {
    const inserted = await trx
      .insertInto("notes")
      .values({
        org_id: visit.org_id,
        visit_id: visit.id,
        patient_id: visit.patient_id,
        template_id: template.id,
        template: JSON.stringify(template),
        language,
        created_by: args.actor.userId,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      orgId: visit.org_id,
      actorId: args.actor.userId,
      action: "note.generate",
      entity: "note",
      entityId: inserted.id,
      details: { visit_id: visit.id, template_id: template.id, language },
      meta: args.meta,
    });
    return inserted.id;
  });
  await enqueueGenerateNote(args.db, { orgId: args.orgId, noteId: id });
  return { id };
}

export async function getNote(args: NoteArgs & { noteId: string }): Promise<NoteView> {
  checkOrgId(args.orgId);
  checkNoteId(args.noteId);
  return asActor(args, args.orgId, async (trx) => {
    await requireNoteRole(trx, args.orgId, args.actor.userId);
    const row = await loadNote(trx, args.orgId, args.noteId);
    await recordRead(trx, args, { action: "note.read", entity: "note", entityId: row.id, visitId: row.visit_id });
    return noteView(row, await loadVersions(trx, args.orgId, args.noteId), await loadChecks(trx, args.orgId, args.noteId));
  });
}

/** One line of a note list. */
export interface NoteSummary {
  id: string;
  status: NoteStatus;
  visit_id: string;
  template_id: string;
  template_name: string;
  language: VisitLanguage;
  created_at: string;
  signed_at: string | null;
}

export interface RecentNote extends NoteSummary {
  patient_name: string;
  visit_title: string;
}

/** GET /api/visits/:id/notes: the visit's notes, newest first. */
export async function listVisitNotes(args: NoteArgs & { visitId: string }): Promise<NoteSummary[]> {
  checkOrgId(args.orgId);
  checkVisitId(args.visitId);
  return asActor(args, args.orgId, async (trx) => {
    await requireNoteRole(trx, args.orgId, args.actor.userId);
    await loadVisit(trx, args.orgId, args.visitId);
    const rows = await trx
      .selectFrom("notes")
      .select(["id", "status", "visit_id", "template_id", "template", "language", "created_at", "signed_at"])
      .where("org_id", "=", args.orgId)
      .where("visit_id", "=", args.visitId)
      .orderBy("created_at", "desc")
      .limit(200)
      .execute();
    return rows.map(summaryOf);
  });
}

/** The note editor's list (/coding without id), and the dashboard's drafts to sign: the organisation's newest notes. */
export async function listRecentNotes(args: NoteArgs & { limit?: number; status?: NoteStatus }): Promise<RecentNote[]> {
  checkOrgId(args.orgId);
  return asActor(args, args.orgId, async (trx) => {
    await requireNoteRole(trx, args.orgId, args.actor.userId);
    const rows = await trx
      .selectFrom("notes as n")
      .innerJoin("visits as v", (j) => j.onRef("v.org_id", "=", "n.org_id").onRef("v.id", "=", "n.visit_id"))
      .innerJoin("patients as p", (j) => j.onRef("p.org_id", "=", "n.org_id").onRef("p.id", "=", "n.patient_id"))
      .select([
        "n.id",
        "n.status",
        "n.visit_id",
        "n.template_id",
        "n.template",
        "n.language",
        "n.created_at",
        "n.signed_at",
        "p.display_name as patient_name",
        "v.title as visit_title",
      ])
      .where("n.org_id", "=", args.orgId)
      .$if(args.status !== undefined, (q) => q.where("n.status", "=", args.status as NoteStatus))
      .orderBy("n.created_at", "desc")
      .limit(Math.min(Math.max(args.limit ?? 50, 1), 200))
      .execute();
    return rows.map((r) => ({ ...summaryOf(r), patient_name: r.patient_name, visit_title: r.visit_title }));
  });
}

function summaryOf(r: {
  id: string;
  status: NoteStatus;
  visit_id: string;
  template_id: string;
  template: unknown;
  language: VisitLanguage;
  created_at: Date;
  signed_at: Date | null;
}): NoteSummary {
  return {
    id: r.id,
    status: r.status,
    visit_id: r.visit_id,
    template_id: r.template_id,
    template_name: templateOf(r.template).name,
    language: r.language,
    created_at: r.created_at.toISOString(),
    signed_at: r.signed_at?.toISOString() ?? null,
  };
}

/** Each section named by `edits` revised (400 unknown_section for a key the note lacks). */
export function applyEdits(content: readonly NoteSectionDraft[], edits: readonly SectionText[]): NoteSectionDraft[] {
  const next = [...content];
  for (const edit of edits) {
    const index = next.findIndex((s) => s.key === edit.key);
    const current = next[index];
    if (!current) throw noteErrors.unknownSection(edit.key);
    next[index] = reviseSection(current, edit.text);
  }
  return next;
}

/** Only drafts take edits, regenerations and the signature: the matching 409 for every other status. */
export function requireDraft(status: NoteStatus): void {
  if (status === "draft") return;
  if (status === "generating") throw noteErrors.generating();
  if (status === "signed" || status === "amended") throw noteErrors.alreadySigned();
  throw noteErrors.notDraft();
}

/**
 * PUT /api/notes/:id: the clinician's edit of a draft. Sentences are re-split; unchanged ones keep
 * their evidence, typed ones are the clinician's. Each save that changes the text appends a
 * draft_edit version (the history a signature later closes).
 */
export async function saveDraft(
  args: NoteArgs & {
    noteId: string;
    sections: SectionText[];
    /** The version the edit was made on: 409 version_conflict when the note moved on since. */
    expectedVersion?: number;
  },
): Promise<NoteView> {
  checkOrgId(args.orgId);
  checkNoteId(args.noteId);
  return asActor(args, args.orgId, async (trx) => {
    await requireNoteRole(trx, args.orgId, args.actor.userId);
    const row = await loadNote(trx, args.orgId, args.noteId, { lock: true });
    if (args.expectedVersion !== undefined && args.expectedVersion !== Number(row.version)) {
      throw noteErrors.versionConflict(Number(row.version));
    }
    requireDraft(row.status);
    const before = sectionsOf(row.content);
    const after = applyEdits(before, args.sections);
    if (after.some((s, i) => s.text !== before[i]?.text)) {
      await trx
        .insertInto("note_versions")
        .values({
          org_id: row.org_id,
          note_id: row.id,
          version: await nextVersion(trx, row.org_id, row.id),
          kind: "draft_edit",
          sections: JSON.stringify(after),
          content_sha256: noteContentHash(row.language, after),
          author_id: args.actor.userId,
          amendment_reason: null,
        })
        .execute();
      await trx
        .updateTable("notes")
        .set({ content: JSON.stringify(after) })
        .where("org_id", "=", row.org_id)
        .where("id", "=", row.id)
        .execute();
    }
    const updated = await loadNote(trx, args.orgId, args.noteId);
    // Issue 27: editing the sentence a check is about resolves it; a new contradiction opens one.
    await recomputeChecks(trx, updated, args.actor.userId);
    return noteView(updated, await loadVersions(trx, args.orgId, args.noteId), await loadChecks(trx, args.orgId, args.noteId));
  });
}

/** POST /api/notes/:id/rating: the clinician's 1–5 verdict on the draft (quality data), any time. */
export async function rateNote(
  args: NoteArgs & { noteId: string; rating: number; comment: string | null },
): Promise<{ rating: number; rating_comment: string | null }> {
  checkOrgId(args.orgId);
  checkNoteId(args.noteId);
  return asActor(args, args.orgId, async (trx) => {
    await requireNoteRole(trx, args.orgId, args.actor.userId);
    const row = await loadNote(trx, args.orgId, args.noteId, { lock: true });
    await trx
      .updateTable("notes")
      .set({ rating: args.rating, rating_comment: args.comment })
      .where("org_id", "=", row.org_id)
      .where("id", "=", row.id)
      .execute();
    return { rating: args.rating, rating_comment: args.comment };
  });
}

/**
 * POST /api/notes/:id/sections/:key/regenerate: the note goes back to `generating` for that
 * section only (a new generation round, so an older job's result is dropped); the job replaces
 * the section in both the generated draft and the current text.
 */
export async function regenerateSection(args: NoteArgs & { noteId: string; key: string }): Promise<{ id: string }> {
  checkOrgId(args.orgId);
  checkNoteId(args.noteId);
  await asActor(args, args.orgId, async (trx) => {
    await requireNoteRole(trx, args.orgId, args.actor.userId);
    const row = await loadNote(trx, args.orgId, args.noteId, { lock: true });
    if (!templateOf(row.template).sections.some((s) => s.key === args.key)) throw noteErrors.sectionNotFound();
    requireDraft(row.status);
    await trx
      .updateTable("notes")
      .set((eb) => ({
        status: "generating",
        pending_sections: [args.key],
        generation: eb("generation", "+", 1),
        progress: 0,
        failure_code: null,
        failure_reason: null,
      }))
      .where("org_id", "=", row.org_id)
      .where("id", "=", row.id)
      .execute();
    await recordAudit(trx, {
      orgId: row.org_id,
      actorId: args.actor.userId,
      action: "note.generate",
      entity: "note",
      entityId: row.id,
      details: { visit_id: row.visit_id, template_id: row.template_id, sections: [args.key] },
      meta: args.meta,
    });
  });
  await enqueueGenerateNote(args.db, { orgId: args.orgId, noteId: args.noteId });
  return { id: args.noteId };
}
