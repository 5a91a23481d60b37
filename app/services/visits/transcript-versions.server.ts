import type { TranscriptSegmentRow } from "#app/db/schema.ts";
import { recordAudit } from "#app/services/orgs/audit.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { AppError } from "#app/utils/app-error.ts";
import { checkVisitId, requireClinicalRole } from "./access.server.ts";
import { transcriptAuditAction } from "./transcript-audit.server.ts";
import {
  insertTranscriptVersion,
  latestTranscription,
  originalTranscription,
  type TranscriptionView,
} from "./transcripts.server.ts";
import { loadVisit } from "./visit-rows.server.ts";

type VisitArgs = OrgServiceArgs & { orgId: string; visitId: string };

export const transcriptErrors = {
  noTranscript: () => new AppError(409, "no_transcript", "This visit has no transcript to edit yet"),
  conflict: () =>
    new AppError(409, "transcript_conflict", "A newer version of this transcript was saved meanwhile: reload and edit it"),
  segmentsMismatch: () =>
    new AppError(400, "transcript_segments_mismatch", "Send one text per segment of the version being edited"),
  empty: () => new AppError(400, "transcript_empty", "An edited transcript cannot be empty"),
};

/** What the transcript view shows beside the newest version: how it came to be, and the original. */
export interface TranscriptHistory {
  latest: TranscriptionView | null;
  /** The newest version that is not an edit (engine or import), when the newest is an edit. */
  original: TranscriptionView | null;
}

export function getTranscriptHistory(args: VisitArgs): Promise<TranscriptHistory> {
  checkOrgId(args.orgId);
  checkVisitId(args.visitId);
  return asActor(args, args.orgId, async (trx) => {
    await requireClinicalRole(trx, args.orgId, args.actor.userId);
    const visit = await loadVisit(trx, args.orgId, args.visitId);
    const latest = await latestTranscription(trx, visit.org_id, visit.id);
    const original = latest?.source === "edit" ? await originalTranscription(trx, visit.org_id, visit.id) : null;
    return { latest, original };
  });
}

export interface TranscriptEdit {
  /** The version the editor started from: a newer one saved meanwhile is a 409, never overwritten. */
  baseVersion: number;
  /** One text per segment of the base version, in order; their timestamps stay. */
  segments?: readonly string[];
  /** The whole text, for a version without segments (an import). */
  text?: string;
}

function editedContent(base: TranscriptionView, edit: TranscriptEdit): { text: string; segments: TranscriptSegmentRow[] } {
  if (base.segments.length > 0) {
    if (!edit.segments || edit.segments.length !== base.segments.length) throw transcriptErrors.segmentsMismatch();
    const texts = edit.segments;
    // An emptied segment is a deletion: its words were not said, or not worth keeping.
    const segments = base.segments
      .map((s, i): TranscriptSegmentRow => {
        const text = (texts[i] ?? "").replace(/\s+/g, " ").trim();
        // The engine's word confidences describe its words: an edited segment is the clinician's.
        const row: TranscriptSegmentRow = { start: s.start, end: s.end, text, speaker: s.speaker ?? null };
        if (s.confidence && text === s.text) row.confidence = s.confidence;
        // Who said it does not change with a corrected word (issue 26).
        if (s.speaker_edited) row.speaker_edited = true;
        return row;
      })
      .filter((s) => s.text !== "");
    return { text: segments.map((s) => s.text).join(" "), segments };
  }
  if (edit.text === undefined) throw transcriptErrors.segmentsMismatch();
  return { text: edit.text.trim(), segments: [] };
}

/**
 * The transcript view's editor (issue 5 "editing with versions kept"): the edit becomes a new
 * version (source and engine `edit`); every earlier version, the engine's original included,
 * stays. Saving what is already the newest text adds nothing.
 */
export function editTranscript(
  args: VisitArgs & { edit: TranscriptEdit },
): Promise<{ id: string; version: number; unchanged: boolean }> {
  checkOrgId(args.orgId);
  checkVisitId(args.visitId);
  return asActor(args, args.orgId, async (trx) => {
    await requireClinicalRole(trx, args.orgId, args.actor.userId);
    const visit = await loadVisit(trx, args.orgId, args.visitId, { lock: true });
    const base = await latestTranscription(trx, visit.org_id, visit.id);
    if (!base) throw transcriptErrors.noTranscript();
    if (base.version !== args.edit.baseVersion) throw transcriptErrors.conflict();
    const content = editedContent(base, args.edit);
    if (content.text === "") throw transcriptErrors.empty();
    const same =
      content.text === base.text &&
      content.segments.length === base.segments.length &&
      content.segments.every((s, i) => s.text === base.segments[i]?.text);
    if (same) return { id: visit.id, version: base.version, unchanged: true };
    const version = await insertTranscriptVersion(trx, {
      orgId: visit.org_id,
      visitId: visit.id,
      source: "edit",
      engine: "edit",
      language: visit.language,
      text: content.text,
      segments: content.segments,
      createdBy: args.actor.userId,
    });
    if (version === null) throw new Error("an edited transcript cannot collide");
    await recordAudit(trx, {
      orgId: visit.org_id,
      actorId: args.actor.userId,
      action: transcriptAuditAction("edited"),
      entity: "visit",
      entityId: visit.id,
      details: { version, based_on: base.version, characters: content.text.length },
      meta: args.meta,
    });
    return { id: visit.id, version, unchanged: false };
  });
}
