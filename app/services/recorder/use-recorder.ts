/**
 * Recorder for the /transcribing page (issue 5) — what the page needs:
 *
 *   import { RecorderPanel } from "#app/components/recorder/recorder-panel.tsx";
 *   <RecorderPanel visitId={visit.id} orgId={org.id} userId={user.id} consented={!!visit.consentAt}
 *                  onFinished={() => revalidate()} />
 *
 * The panel uses this hook; a page that draws its own UI can call useRecorder() directly. Everything
 * runs in the browser after hydration: the server render shows the panel in its "preparing" state.
 * - Chunks are encrypted into IndexedDB ("murmur-recorder") before upload and deleted once acknowledged
 *   (PUT /api/visits/:id/audio/chunks/:seq); Stop sends the manifest (POST …/audio/finish).
 * - Recovery of earlier pages' audio runs for the current organisation when the hook mounts; to run it
 *   on every page load, call `startRecorderRecovery(org.id, user.id, i18n.t)` from an effect of the
 *   signed-in layout (it toasts what it found through the recording toast event, once per page).
 * - The auth store's hooks isRecording/hasUnsentAudio are registered once the store has started; leaving
 *   the site while audio is unsent asks first (beforeunload), in-app navigation too (useBlocker).
 * - Pass a stable onFinished (useCallback): it is called when the server accepted the manifest.
 * - The locale namespace is "recorder" (locales/{en,fr,es}/recorder.json).
 */
import { useCallback, useEffect, useState, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { emitRecordingToast } from "#app/components/toasts.tsx";
import { getAuthStore, useAuthStore } from "#app/services/auth-client/use-auth-store.ts";
import { getRecorderRuntime, isRecordingSupported, registerAuthHooksOnce } from "./browser-runtime.ts";
import { INITIAL_RECORDER_STATE, type RecorderState } from "./recorder.ts";
import { hasRecoveryNews, type RecoveryReport } from "./recovery.ts";
import type { RecorderRuntime } from "./runtime.ts";
import type { SessionRecord } from "./types.ts";
import type { UploadEvent, UploadState, VisitUploadState } from "./upload-queue.ts";

export type { RecorderState } from "./recorder.ts";
export type { RecoveryReport } from "./recovery.ts";
export type { UploadState, VisitUploadState } from "./upload-queue.ts";

export interface UseRecorderOptions {
  visitId: string;
  orgId: string;
  userId: string | null;
  /** Called once the server accepted this visit's manifest (transcription is queued). */
  onFinished?: (visitId: string) => void;
}

export interface RecorderController {
  /** The runtime (IndexedDB, keys) is loaded; before that every action is a no-op. */
  ready: boolean;
  /** MediaRecorder and getUserMedia exist in this browser. */
  supported: boolean;
  /** False when audio can only be kept in memory (IndexedDB unavailable). */
  persistent: boolean;
  recorder: RecorderState;
  /** The recorder is busy with another visit (one recording per tab). */
  otherVisitActive: boolean;
  upload: UploadState;
  /** This visit's share of the upload state (null when nothing is queued for it). */
  visitUpload: VisitUploadState | null;
  /** This visit's local session: an interrupted one can be continued or finished. */
  session: SessionRecord | null;
  recovery: RecoveryReport | null;
  /** The server accepted this visit's manifest while the page was open (transcription is queued). */
  finished: boolean;
  start(): Promise<void>;
  pause(): void;
  resume(): Promise<void>;
  stop(): Promise<void>;
  /** Finish an interrupted recording without recording more. */
  finishInterrupted(): Promise<void>;
  retryUpload(): Promise<void>;
  dismissAlert(): void;
}

const EMPTY_UPLOAD: UploadState = {
  phase: "idle",
  online: true,
  pendingChunks: 0,
  pendingBytes: 0,
  nextRetryAt: null,
  visits: {},
};
const noopSubscribe = () => () => {};
const announced = new Set<string>();

/** Runs recovery for the organisation once per page load and toasts what it found (issue 5). */
export async function startRecorderRecovery(
  orgId: string,
  userId: string | null,
  t: (key: string, options?: Record<string, unknown>) => string,
): Promise<RecoveryReport> {
  const runtime = await getRecorderRuntime();
  const report = await runtime.recover(orgId, userId);
  const key = `${orgId}:${userId ?? ""}`;
  if (!announced.has(key) && hasRecoveryNews(report)) {
    announced.add(key);
    const sending = new Set([...report.uploading.map((item) => item.visitId), ...report.finishing]).size;
    if (sending > 0) emitRecordingToast({ message: t("recorder:recovery.toast", { count: sending }) });
    if (report.failed.length > 0)
      emitRecordingToast({ message: t("recorder:recovery.failedToast", { count: report.failed.length }) });
  }
  return report;
}

function useRuntime(): RecorderRuntime | null {
  const [runtime, setRuntime] = useState<RecorderRuntime | null>(null);
  useEffect(() => {
    let live = true;
    void getRecorderRuntime().then((created) => {
      if (live) setRuntime(created);
    });
    return () => {
      live = false;
    };
  }, []);
  return runtime;
}

export function useRecorder(options: UseRecorderOptions): RecorderController {
  const { visitId, orgId, userId, onFinished } = options;
  const { t } = useTranslation("recorder");
  const runtime = useRuntime();
  const [recovery, setRecovery] = useState<RecoveryReport | null>(null);
  const [session, setSession] = useState<SessionRecord | null>(null);
  const [finished, setFinished] = useState(false);

  const recorder = useSyncExternalStore(
    runtime ? runtime.recorder.subscribe : noopSubscribe,
    () => runtime?.recorder.getState() ?? INITIAL_RECORDER_STATE,
    () => INITIAL_RECORDER_STATE,
  );
  const upload = useSyncExternalStore(
    runtime ? runtime.queue.subscribe : noopSubscribe,
    () => runtime?.queue.getState() ?? EMPTY_UPLOAD,
    () => EMPTY_UPLOAD,
  );
  const visitUpload = upload.visits[visitId] ?? null;

  // The auth store starts after hydration; its first state change re-renders us so the hooks get registered.
  useAuthStore((state) => state.authInitialized);
  const authStore = getAuthStore();
  useEffect(() => {
    if (runtime && authStore) registerAuthHooksOnce(runtime);
  }, [runtime, authStore]);

  useEffect(() => {
    if (!runtime) return;
    let live = true;
    void startRecorderRecovery(orgId, userId, t).then((report) => {
      if (live) setRecovery(report);
    });
    return () => {
      live = false;
    };
  }, [runtime, orgId, userId, t]);

  useEffect(() => {
    if (!runtime) return;
    return runtime.queue.onEvent((event: UploadEvent) => {
      if (event.visitId !== visitId) return;
      if (event.type === "finished") {
        setFinished(true);
        emitRecordingToast({ message: t("toasts.finished") });
        onFinished?.(visitId);
      } else if (event.type === "failed") {
        emitRecordingToast({ message: t("toasts.failed") });
      }
    });
  }, [runtime, visitId, onFinished, t]);

  // Re-read the session whenever this visit's recording or upload state moves (latest read wins).
  useEffect(() => {
    if (!runtime) return;
    let live = true;
    let last = "";
    let reads = 0;
    const reload = () => {
      const visit = runtime.queue.getState().visits[visitId];
      const signature = `${runtime.recorder.getState().status}:${visit?.pendingChunks}:${visit?.finishing}:${visit?.failure?.code}`;
      if (signature === last) return;
      last = signature;
      const read = ++reads;
      void runtime.store.getSession(visitId).then((found) => {
        if (live && read === reads) setSession(found);
      });
    };
    reload();
    const stopRecorder = runtime.recorder.subscribe(reload);
    const stopQueue = runtime.queue.subscribe(reload);
    return () => {
      live = false;
      stopRecorder();
      stopQueue();
    };
  }, [runtime, visitId]);

  const otherVisitActive = !!runtime && runtime.recorder.isRecording() && recorder.visitId !== visitId;

  const start = useCallback(async () => {
    if (!runtime || otherVisitActive) return;
    await runtime.recorder.start({ visitId, orgId, userId });
  }, [runtime, otherVisitActive, visitId, orgId, userId]);

  const finishInterrupted = useCallback(async () => {
    if (!runtime) return;
    await runtime.finishInterrupted(visitId);
  }, [runtime, visitId]);

  return {
    ready: !!runtime,
    supported: runtime ? isRecordingSupported() : true,
    persistent: runtime?.persistent ?? true,
    recorder: recorder.visitId === visitId || recorder.visitId === null ? recorder : INITIAL_RECORDER_STATE,
    otherVisitActive,
    upload,
    visitUpload,
    session,
    recovery,
    finished,
    start,
    pause: () => runtime?.recorder.pause(),
    resume: async () => {
      await runtime?.recorder.resume();
    },
    stop: async () => {
      await runtime?.recorder.stop();
    },
    finishInterrupted,
    retryUpload: async () => {
      await runtime?.queue.retryVisit(visitId);
    },
    dismissAlert: () => runtime?.recorder.dismissAlert(),
  };
}
