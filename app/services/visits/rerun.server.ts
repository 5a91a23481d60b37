import { enqueueTranscribeVisit } from "#app/services/jobs/enqueue.server.ts";
import { recordAudit } from "#app/services/orgs/audit.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs, requireMemberRole, requireRole } from "#app/services/orgs/context.server.ts";
import { AppError } from "#app/utils/app-error.ts";
import { CLINICIAN_ROLES, checkVisitId } from "./access.server.ts";
import { visitErrors } from "./errors.server.ts";
import { transcriptAuditAction } from "./transcript-audit.server.ts";
import { loadVisit } from "./visit-rows.server.ts";

export const transcriptionInProgress = () =>
  new AppError(409, "transcription_in_progress", "This visit is already waiting for or being transcribed");

export interface RerunResult {
  id: string;
  status: "uploaded";
  round: number;
}

/**
 * POST /api/visits/:id/transcribe: transcribe the visit's audio again, as a new version beside
 * the earlier ones. Owners and clinicians only (a re-run spends engine time on clinical
 * judgement: is the transcript worth redoing). The request bumps the visit's transcription round
 * in the same transaction that moves it back to `uploaded`, so the job — keyed on (audio SHA-256,
 * round) — writes exactly one new version however often it is retried; the status is the durable
 * record, and the runner's sweep queues it again if the enqueue below is lost.
 */
export async function rerunTranscription(args: OrgServiceArgs & { orgId: string; visitId: string }): Promise<RerunResult> {
  checkOrgId(args.orgId);
  checkVisitId(args.visitId);
  const result = await asActor(args, args.orgId, async (trx) => {
    const role = await requireMemberRole(trx, args.orgId, args.actor.userId);
    requireRole(role, CLINICIAN_ROLES);
    const visit = await loadVisit(trx, args.orgId, args.visitId, { lock: true });
    if (!visit.audio_sha256 || !visit.audio_key) throw visitErrors.noAudio();
    if (visit.status === "uploaded" || visit.status === "transcribing") throw transcriptionInProgress();
    const round = visit.transcription_round + 1;
    await trx
      .updateTable("visits")
      .set({
        status: "uploaded",
        transcription_round: round,
        transcription_progress: null,
        failure_code: null,
        failure_reason: null,
      })
      .where("org_id", "=", visit.org_id)
      .where("id", "=", visit.id)
      .execute();
    await recordAudit(trx, {
      orgId: visit.org_id,
      actorId: args.actor.userId,
      action: transcriptAuditAction("rerun"),
      entity: "visit",
      entityId: visit.id,
      details: { round, previous_status: visit.status },
      meta: args.meta,
    });
    return { id: visit.id, status: "uploaded" as const, round };
  });
  await enqueueTranscribeVisit(args.db, { orgId: args.orgId, visitId: result.id });
  return result;
}
