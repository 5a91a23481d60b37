import { createAudioApi } from "./audio-api.ts";
import { type ChunkStore, createChunkStore } from "./chunk-store.ts";
import type { RecorderProbes } from "./guards.ts";
import { createRecorder, type Recorder, type RecorderDeps } from "./recorder.ts";
import { EMPTY_RECOVERY, type RecoveryReport, recoverSessions } from "./recovery.ts";
import type { RecorderStorage } from "./storage-port.ts";
import type { Timers } from "./types.ts";
import { createUploadQueue, type UploadQueue } from "./upload-queue.ts";
import { createVisitLocks, type LockManagerLike, type VisitLocks } from "./visit-locks.ts";

export interface RuntimeDeps
  extends Pick<
    RecorderDeps,
    "media" | "createMediaRecorder" | "isTypeSupported" | "createAudioContext" | "wakeLock" | "document" | "timesliceMs"
  > {
  storage: RecorderStorage;
  subtle: SubtleCrypto;
  randomBytes(length: number): Uint8Array<ArrayBuffer>;
  fetch: typeof fetch;
  timers: Timers;
  random(): number;
  isOnline(): boolean;
  locks: LockManagerLike | null;
  logger?: { warn(message: string, details?: Record<string, unknown>): void };
}

export interface RecorderRuntime extends RecorderProbes {
  store: ChunkStore;
  queue: UploadQueue;
  recorder: Recorder;
  locks: VisitLocks;
  /** False when IndexedDB was unavailable and audio is kept in memory only. */
  persistent: boolean;
  /** Stops an interrupted recording (pending_save) without recording more: its manifest is sent. */
  finishInterrupted(visitId: string): Promise<boolean>;
  /** Recovery for an organisation, run once per page load (later calls return the same report). */
  recover(orgId: string, userId: string | null): Promise<RecoveryReport>;
  dispose(): void;
}

/**
 * Puts the recorder's parts together: one store, queue and recorder per page, sharing the visit locks.
 * A visit's lock is let go once this page has nothing left to send for it and is not recording it, so
 * another tab can pick the visit up.
 */
export function createRecorderRuntime(deps: RuntimeDeps): RecorderRuntime {
  const store = createChunkStore({
    storage: deps.storage,
    subtle: deps.subtle,
    randomBytes: deps.randomBytes,
    now: deps.timers.now,
  });
  const locks = createVisitLocks(deps.locks);
  const queue = createUploadQueue({
    store,
    api: createAudioApi({ fetch: deps.fetch }),
    timers: deps.timers,
    random: deps.random,
    isOnline: deps.isOnline,
    ...(deps.logger ? { logger: deps.logger } : {}),
  });
  const recorder = createRecorder({ ...deps, store, queue, locks });
  const recoveries = new Map<string, Promise<RecoveryReport>>();

  const recorderHolds = (visitId: string) => {
    const { status, visitId: recording } = recorder.getState();
    return recording === visitId && (status === "starting" || recorder.isRecording());
  };
  /**
   * Lets a visit's lock go when this page has nothing left to do for it. A visit claimed but not yet
   * handed to the queue (recovery or Start in progress) is kept unless `settled` says its work ended.
   */
  function releaseIfIdle(visitId: string, settled = false): void {
    if (!settled && !queue.isTracking(visitId)) return;
    if (queue.hasUnsentAudioFor(visitId) || recorderHolds(visitId)) return;
    locks.release(visitId);
  }
  const stopState = queue.subscribe(() => {
    for (const visitId of locks.held()) releaseIfIdle(visitId);
  });
  const stopEvents = queue.onEvent((event) => {
    if (event.type !== "acknowledged") releaseIfIdle(event.visitId, true);
  });
  const stopRecorderWatch = recorder.subscribe(() => {
    const { status, visitId } = recorder.getState();
    if (visitId && (status === "stopped" || status === "error")) releaseIfIdle(visitId, true);
  });
  void store.prepare().catch((error: unknown) => deps.logger?.warn("recorder: key not ready", { error: String(error) }));

  return {
    store,
    queue,
    recorder,
    locks,
    persistent: deps.storage.persistent,
    isRecording: () => recorder.isRecording(),
    hasUnsentAudio: () => queue.hasUnsentAudio(),
    async finishInterrupted(visitId) {
      if (recorder.isRecording() || !(await locks.claim(visitId))) return false;
      const session = await store.getSession(visitId);
      if (session?.status !== "pending_save") {
        releaseIfIdle(visitId, true);
        return false;
      }
      await store.updateSession(visitId, { status: "finalized", finalizedAt: deps.timers.now() });
      await queue.track(visitId, session.orgId);
      await queue.requestFinish(visitId, session.orgId);
      return true;
    },
    recover(orgId, userId) {
      const key = `${orgId}:${userId ?? ""}`;
      let run = recoveries.get(key);
      if (!run) {
        run = recoverSessions({ store, queue, locks, orgId, userId })
          .then((report) => {
            // Interrupted visits with nothing left to send stay free for whichever tab resumes them.
            for (const visitId of report.interrupted) releaseIfIdle(visitId);
            return report;
          })
          .catch((error: unknown) => {
            deps.logger?.warn("recorder: recovery failed", { error: String(error) });
            recoveries.delete(key);
            return EMPTY_RECOVERY;
          });
        recoveries.set(key, run);
      }
      return run;
    },
    dispose() {
      stopState();
      stopEvents();
      stopRecorderWatch();
      queue.stop();
    },
  };
}
