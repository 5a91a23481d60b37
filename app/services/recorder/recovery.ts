import type { ChunkStore } from "./chunk-store.ts";
import type { SessionRecord } from "./types.ts";
import type { UploadQueue } from "./upload-queue.ts";
import type { VisitLocks } from "./visit-locks.ts";

/** Refusals a new page load cannot change: they are reported, not retried. */
export const PERMANENT_FAILURES: ReadonlySet<string> = new Set([
  "chunk_conflict",
  "chunks_missing",
  "visit_closed",
  "visit_not_found",
  "local_chunk_unreadable",
]);

export interface RecoveryReport {
  /** Visits whose leftover chunks are being uploaded again. */
  uploading: { visitId: string; chunks: number; bytes: number }[];
  /** Stopped visits whose manifest will be sent once their chunks are in. */
  finishing: string[];
  /** Recordings left without Stop: their audio is uploaded; the visit can be resumed or stopped. */
  interrupted: string[];
  /** Visits the server refused for good; the local copy is kept. */
  failed: { visitId: string; code: string }[];
  /** Left to the other tab of this browser that is handling them now. */
  busy: string[];
}

export interface RecoveryDeps {
  store: Pick<ChunkStore, "listSessions" | "listChunks" | "chunkVisitIds" | "adoptChunks" | "updateSession">;
  queue: Pick<UploadQueue, "track" | "requestFinish" | "retryVisit" | "isTracking">;
  locks: Pick<VisitLocks, "claim" | "release">;
  orgId: string;
  userId: string | null;
}

export const EMPTY_RECOVERY: RecoveryReport = { uploading: [], finishing: [], interrupted: [], failed: [], busy: [] };

/** A session of this organisation, and of this user when both are known (a shared computer). */
function belongsHere(session: SessionRecord, deps: RecoveryDeps): boolean {
  if (session.orgId !== deps.orgId) return false;
  return deps.userId === null || session.userId === null || session.userId === deps.userId;
}

/**
 * Runs on every page load (issue 5): finds the audio earlier pages of this browser left for the current
 * organisation — sessions under the SPEC §4 families and bare chunks — and hands it to the upload queue.
 * A session still marked "recording" whose visit lock is free belonged to a page that went away
 * mid-recording: it becomes pending_save. Stopped visits get their manifest sent.
 */
export async function recoverSessions(deps: RecoveryDeps): Promise<RecoveryReport> {
  const report: RecoveryReport = { uploading: [], finishing: [], interrupted: [], failed: [], busy: [] };
  const sessions = await deps.store.listSessions();
  const known = new Set(sessions.map((session) => session.visitId));
  for (const visitId of await deps.store.chunkVisitIds()) {
    if (known.has(visitId)) continue;
    const adopted = await deps.store.adoptChunks(visitId, null);
    if (adopted) sessions.push(adopted);
  }

  for (const session of sessions) {
    if (!belongsHere(session, deps) || deps.queue.isTracking(session.visitId)) continue;
    const { visitId } = session;
    if (!(await deps.locks.claim(visitId))) {
      report.busy.push(visitId);
      continue;
    }
    if (session.status === "failed_save" && session.failure && PERMANENT_FAILURES.has(session.failure.code)) {
      report.failed.push({ visitId, code: session.failure.code });
      deps.locks.release(visitId);
      continue;
    }
    const stopped = session.finalizedAt !== null || session.status === "finalized" || session.status === "offline_transcription";
    // Counted before the queue starts: a fast server acknowledges (and so deletes) them at once.
    const chunks = (await deps.store.listChunks(visitId)).filter((chunk) => chunk.state === "pending");
    if (session.status === "recording") await deps.store.updateSession(visitId, { status: "pending_save" });
    if (session.status === "failed_save") await deps.queue.retryVisit(visitId);
    else await deps.queue.track(visitId, session.orgId);
    if (chunks.length > 0) {
      report.uploading.push({ visitId, chunks: chunks.length, bytes: chunks.reduce((sum, chunk) => sum + chunk.size, 0) });
    }
    if (stopped) {
      report.finishing.push(visitId);
      if (session.status !== "failed_save") await deps.queue.requestFinish(visitId, session.orgId);
    } else {
      report.interrupted.push(visitId);
    }
  }
  return report;
}

/** Whether the report is worth a toast: something is being sent or could not be. */
export function hasRecoveryNews(report: RecoveryReport): boolean {
  return report.uploading.length > 0 || report.finishing.length > 0 || report.failed.length > 0;
}
