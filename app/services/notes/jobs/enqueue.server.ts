import type { Database } from "#app/db/database.server.ts";
import { runningBoss } from "#app/services/jobs/registry.server.ts";
import { GENERATE_NOTE_QUEUE, type GenerateNotePayload, GenerateNotePayloadSchema } from "./queues.ts";

/**
 * Queues a note's generation after the request's transaction committed. The note's `generating`
 * status is the durable record: without a job runner (or after a crash before this call) the
 * sweep in startNoteWorkers finds it.
 */
export async function enqueueGenerateNote(
  db: Database,
  payload: GenerateNotePayload,
): Promise<{ queued: boolean; jobId: string | null }> {
  const data = GenerateNotePayloadSchema.parse(payload);
  const boss = runningBoss(db);
  if (!boss) return { queued: false, jobId: null };
  const jobId = await boss.send(GENERATE_NOTE_QUEUE, data, { singletonKey: data.noteId });
  return { queued: true, jobId };
}
