import type { Database } from "#app/db/database.server.ts";
import { TRANSCRIBE_VISIT_QUEUE, type TranscribeVisitPayload, TranscribeVisitPayloadSchema } from "./queues.ts";
import { runningBoss } from "./registry.server.ts";

export interface EnqueueResult {
  /** False when no job runner is started for this database: the recovery sweep will enqueue it. */
  queued: boolean;
  /** The new job's id; null when one is already waiting for this visit (the singleton key). */
  jobId: string | null;
}

/**
 * Queues the transcription of a visit's current audio. Called after the upload's transaction
 * committed; the visit's `uploaded` status is the durable record, so a crash between the commit
 * and this call only delays the job until startJobs' sweep finds the visit.
 */
export async function enqueueTranscribeVisit(db: Database, payload: TranscribeVisitPayload): Promise<EnqueueResult> {
  const data = TranscribeVisitPayloadSchema.parse(payload);
  const boss = runningBoss(db);
  if (!boss) return { queued: false, jobId: null };
  const jobId = await boss.send(TRANSCRIBE_VISIT_QUEUE, data, { singletonKey: data.visitId });
  return { queued: true, jobId };
}
