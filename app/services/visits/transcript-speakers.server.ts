import type { TranscriptSegmentRow } from "#app/db/schema.ts";
import { recordAudit } from "#app/services/orgs/audit.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import type { SpeakerRole } from "#app/services/speech/diarise/speaker.ts";
import { AppError } from "#app/utils/app-error.ts";
import { checkVisitId, requireClinicalRole } from "./access.server.ts";
import { transcriptAuditAction } from "./transcript-audit.server.ts";
import { transcriptErrors } from "./transcript-versions.server.ts";
import { insertTranscriptVersion, latestTranscription } from "./transcripts.server.ts";
import { loadVisit } from "./visit-rows.server.ts";

export const speakerErrors = {
  noSegment: () => new AppError(400, "transcript_segment_not_found", "The version being edited has no such segment"),
};

export interface SpeakerChange {
  /** The version the user looked at: a newer one saved meanwhile is a 409. */
  baseVersion: number;
  /** 0-based index of the segment in that version. */
  segment: number;
  speaker: SpeakerRole;
}

/**
 * The transcript view's "who said this" (issue 26): the segment's speaker set by hand becomes a
 * new version (source `edit`, audited as a transcript edit with what changed); every earlier version
 * stays. The segment is marked `speaker_edited`, so a re-run keeps the correction. Setting the
 * speaker it already has adds nothing.
 */
export function setSegmentSpeaker(
  args: OrgServiceArgs & { orgId: string; visitId: string; change: SpeakerChange },
): Promise<{ id: string; version: number; unchanged: boolean }> {
  checkOrgId(args.orgId);
  checkVisitId(args.visitId);
  return asActor(args, args.orgId, async (trx) => {
    await requireClinicalRole(trx, args.orgId, args.actor.userId);
    const visit = await loadVisit(trx, args.orgId, args.visitId, { lock: true });
    const base = await latestTranscription(trx, visit.org_id, visit.id);
    if (!base) throw transcriptErrors.noTranscript();
    if (base.version !== args.change.baseVersion) throw transcriptErrors.conflict();
    const target = base.segments[args.change.segment];
    if (!target) throw speakerErrors.noSegment();
    if (target.speaker === args.change.speaker && target.speaker_edited) {
      return { id: visit.id, version: base.version, unchanged: true };
    }
    const segments = base.segments.map(
      (s, i): TranscriptSegmentRow =>
        i === args.change.segment ? { ...s, speaker: args.change.speaker, speaker_edited: true } : s,
    );
    const version = await insertTranscriptVersion(trx, {
      orgId: visit.org_id,
      visitId: visit.id,
      source: "edit",
      engine: "edit",
      language: visit.language,
      text: base.text,
      segments,
      createdBy: args.actor.userId,
    });
    if (version === null) throw new Error("an edited transcript cannot collide");
    await recordAudit(trx, {
      orgId: visit.org_id,
      actorId: args.actor.userId,
      action: transcriptAuditAction("edited"),
      entity: "visit",
      entityId: visit.id,
      details: {
        version,
        based_on: base.version,
        segment: args.change.segment,
        speaker_from: target.speaker ?? null,
        speaker_to: args.change.speaker,
      },
      meta: args.meta,
    });
    return { id: visit.id, version, unchanged: false };
  });
}

/**
 * A re-run's new segments keep the speakers a person set on the transcript it replaces: each new
 * segment takes the hand-set speaker of the old segment it overlaps most in time, when that
 * overlap covers at least half of it (issue 26 "re-runs keep a clinician's manual corrections").
 */
export function keepEditedSpeakers(
  fresh: readonly TranscriptSegmentRow[],
  previous: readonly TranscriptSegmentRow[],
): TranscriptSegmentRow[] {
  const edited = previous.filter((s) => s.speaker_edited && s.speaker);
  if (edited.length === 0) return [...fresh];
  return fresh.map((segment) => {
    let best: TranscriptSegmentRow | null = null;
    let bestOverlap = 0;
    for (const old of edited) {
      const overlap = Math.min(segment.end, old.end) - Math.max(segment.start, old.start);
      if (overlap > bestOverlap) {
        best = old;
        bestOverlap = overlap;
      }
    }
    const length = Math.max(segment.end - segment.start, 1e-3);
    return best && bestOverlap >= length / 2 ? { ...segment, speaker: best.speaker ?? null, speaker_edited: true } : segment;
  });
}
