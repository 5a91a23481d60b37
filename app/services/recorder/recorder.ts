import { backoffDelay } from "./backoff.ts";
import { type ChunkStore, RecorderStoreError } from "./chunk-store.ts";
import { LEVEL_SAMPLE_INTERVAL_MS, PREFERRED_MIME_TYPE, RECORDER_TIMESLICE_MS } from "./constants.ts";
import { type AudioContextLike, openLevelMeter } from "./level-meter.ts";
import type {
  BlobLike,
  DocumentLike,
  MediaDevicesLike,
  MediaRecorderLike,
  MediaStreamLike,
  MediaTrackLike,
} from "./media-types.ts";
import type { Timers } from "./types.ts";
import type { UploadQueue } from "./upload-queue.ts";
import type { VisitLocks } from "./visit-locks.ts";
import { createWakeLockKeeper, type WakeLockLike } from "./wake-lock.ts";

export type RecorderStatus = "idle" | "starting" | "recording" | "paused" | "stopping" | "stopped" | "error";
/** Problems shown while the recording goes on (or waits for the user). */
export type RecorderAlert = "microphone_lost" | "microphone_muted" | "storage_failed";
/** Why a recording could not start. */
export type RecorderError =
  | "permission_denied"
  | "no_microphone"
  | "unsupported"
  | "visit_busy"
  | "session_closed"
  | "start_failed";

export interface RecorderState {
  status: RecorderStatus;
  visitId: string | null;
  /** Recorded time, pauses excluded (including earlier segments of the same visit). */
  elapsedMs: number;
  /** Input RMS level, 0..1, sampled ~10 times a second while recording. */
  level: number;
  alert: RecorderAlert | null;
  error: RecorderError | null;
  wakeLock: boolean;
  mimeType: string | null;
  /** Chunks stored locally by this page for the current visit. */
  chunksStored: number;
}

export interface StartInput {
  visitId: string;
  orgId: string;
  userId: string | null;
}

export interface RecorderDeps {
  store: Pick<ChunkStore, "openSession" | "appendChunk" | "updateSession">;
  queue: Pick<UploadQueue, "add" | "track" | "requestFinish">;
  locks: Pick<VisitLocks, "claim">;
  media: MediaDevicesLike | null;
  createMediaRecorder(stream: MediaStreamLike, options: { mimeType?: string }): MediaRecorderLike;
  isTypeSupported(mimeType: string): boolean;
  createAudioContext: (() => AudioContextLike) | null;
  wakeLock: WakeLockLike | null;
  document: DocumentLike;
  timers: Timers;
  random(): number;
  timesliceMs?: number;
  logger?: { warn(message: string, details?: Record<string, unknown>): void };
}

export const INITIAL_RECORDER_STATE: RecorderState = {
  status: "idle",
  visitId: null,
  elapsedMs: 0,
  level: 0,
  alert: null,
  error: null,
  wakeLock: false,
  mimeType: null,
  chunksStored: 0,
};

/** One MediaRecorder run: from Start (or Resume after a lost microphone) to Stop (or the loss). */
interface Segment {
  stream: MediaStreamLike;
  recorder: MediaRecorderLike;
  meter: { read(): number; close(): void } | null;
  stopped: Promise<void>;
  detach(): void;
}

interface Active extends StartInput {
  segment: Segment | null;
  accumulatedMs: number;
  activeSince: number | null;
  /** Chunk writes, chained so sequence numbers follow the recorder's order. */
  writes: Promise<void>;
}

function startError(error: unknown): RecorderError {
  const name = error && typeof error === "object" && "name" in error ? String(error.name) : "";
  if (name === "NotAllowedError" || name === "SecurityError") return "permission_denied";
  if (name === "NotFoundError" || name === "OverconstrainedError" || name === "NotReadableError") return "no_microphone";
  if (error instanceof RecorderStoreError && error.code === "session_closed") return "session_closed";
  return "start_failed";
}

/**
 * The MediaRecorder wrapper of the /transcribing page (issue 5 "Recording"). Every chunk (timeslice
 * ≤ 5 s) is encrypted into IndexedDB first and only then handed to the upload queue. Pause/resume keep
 * one recorder; a lost microphone ends the segment and Resume starts a new one (new stream, same visit,
 * next sequence number). Stop flushes the last chunk, marks the visit finalized and asks the queue to
 * send the manifest once everything is acknowledged.
 */
export function createRecorder(deps: RecorderDeps) {
  const { timers } = deps;
  let state: RecorderState = INITIAL_RECORDER_STATE;
  const listeners = new Set<() => void>();
  let active: Active | null = null;
  let tickHandle: unknown = null;
  const wake = createWakeLockKeeper(deps.wakeLock, (held) => set({ wakeLock: held }));

  function set(patch: Partial<RecorderState>): void {
    state = { ...state, ...patch };
    for (const listener of listeners) listener();
  }

  const elapsedOf = (current: Active) =>
    current.accumulatedMs + (current.activeSince === null ? 0 : timers.now() - current.activeSince);

  function tick(): void {
    tickHandle = null;
    if (!active || state.status !== "recording") return;
    set({ elapsedMs: elapsedOf(active), level: active.segment?.meter?.read() ?? 0 });
    tickHandle = timers.setTimeout(tick, LEVEL_SAMPLE_INTERVAL_MS);
  }
  function stopTicking(): void {
    if (tickHandle !== null) timers.clearTimeout(tickHandle);
    tickHandle = null;
  }

  function chooseMimeType(): string | undefined {
    try {
      return deps.isTypeSupported(PREFERRED_MIME_TYPE) ? PREFERRED_MIME_TYPE : undefined;
    } catch {
      return undefined;
    }
  }

  /** Stores a chunk, retrying with back-off while storage fails: the bytes stay in memory meanwhile. */
  async function persist(current: Active, blob: BlobLike, durationMs: number): Promise<void> {
    const data = new Uint8Array(await blob.arrayBuffer());
    for (let attempt = 1; ; attempt++) {
      try {
        const meta = await deps.store.appendChunk(current.visitId, data, durationMs);
        deps.queue.add(meta);
        set({ chunksStored: state.chunksStored + 1, ...(state.alert === "storage_failed" ? { alert: null } : {}) });
        return;
      } catch (error) {
        deps.logger?.warn("recorder: chunk not stored", { visitId: current.visitId, attempt, error: String(error) });
        if (error instanceof RecorderStoreError && error.code === "session_not_recording") {
          set({ alert: "storage_failed" });
          return;
        }
        set({ alert: "storage_failed" });
        await new Promise<void>((resolve) => timers.setTimeout(resolve, backoffDelay(attempt, deps.random())));
      }
    }
  }

  function onTrackEnded(current: Active): void {
    if (active !== current || (state.status !== "recording" && state.status !== "paused")) return;
    set({ alert: "microphone_lost" });
    void endSegment(current).then(() => {
      if (active === current && state.status === "recording") enterPaused(current);
    });
  }

  function enterPaused(current: Active): void {
    if (current.activeSince !== null) current.accumulatedMs += timers.now() - current.activeSince;
    current.activeSince = null;
    stopTicking();
    set({ status: "paused", elapsedMs: current.accumulatedMs, level: 0 });
    // A stretch boundary for the finish manifest; losing it only loses diagnosis, never audio.
    deps.store
      .updateSession(current.visitId, { breakAtMs: Math.round(current.accumulatedMs) })
      .catch((error: unknown) => deps.logger?.warn("recorder: pause not saved", { error: String(error) }));
  }

  async function startSegment(current: Active): Promise<void> {
    if (!deps.media) throw Object.assign(new Error("no mediaDevices"), { name: "NotFoundError" });
    const stream = await deps.media.getUserMedia({
      audio: { echoCancellation: true, noiseSuppression: true, channelCount: 1 },
    });
    let recorder: MediaRecorderLike;
    const mimeType = chooseMimeType();
    try {
      recorder = deps.createMediaRecorder(stream, mimeType ? { mimeType } : {});
    } catch (error) {
      for (const track of stream.getTracks()) track.stop();
      throw error;
    }
    let session: Awaited<ReturnType<typeof deps.store.openSession>>;
    try {
      session = await deps.store.openSession({
        visitId: current.visitId,
        orgId: current.orgId,
        userId: current.userId,
        mimeType: recorder.mimeType || mimeType || "",
      });
    } catch (error) {
      for (const track of stream.getTracks()) track.stop();
      throw error;
    }
    current.accumulatedMs = Math.max(current.accumulatedMs, session.durationMs);

    let resolveStopped: () => void = () => {};
    const stopped = new Promise<void>((resolve) => {
      resolveStopped = resolve;
    });
    const tracks: MediaTrackLike[] = stream.getAudioTracks();
    // Events of a segment already ended (or replaced after a lost microphone) are stale.
    const onEnded = () => {
      if (current.segment === segment) onTrackEnded(current);
    };
    const onMute = () => {
      if (active === current && !state.alert) set({ alert: "microphone_muted" });
    };
    const onUnmute = () => {
      if (active === current && state.alert === "microphone_muted") set({ alert: null });
    };
    // Some browsers report an unplugged device only as a device change.
    const onDeviceChange = () => {
      if (tracks.some((track) => track.readyState === "ended")) onEnded();
    };
    for (const track of tracks) {
      track.addEventListener("ended", onEnded);
      track.addEventListener("mute", onMute);
      track.addEventListener("unmute", onUnmute);
    }
    deps.media.addEventListener?.("devicechange", onDeviceChange);
    recorder.addEventListener("dataavailable", (event) => {
      if (event.data.size === 0) return;
      const durationMs = elapsedOf(current);
      current.writes = current.writes
        .then(() => persist(current, event.data, durationMs))
        .catch((error: unknown) => {
          deps.logger?.warn("recorder: chunk lost before storage", { visitId: current.visitId, error: String(error) });
          set({ alert: "storage_failed" });
        });
    });
    recorder.addEventListener("stop", () => {
      resolveStopped();
      onEnded();
    });
    recorder.addEventListener("error", onEnded);

    const segment: Segment = {
      stream,
      recorder,
      meter: openLevelMeter(deps.createAudioContext, stream),
      stopped,
      detach() {
        for (const track of tracks) {
          track.removeEventListener("ended", onEnded);
          track.removeEventListener("mute", onMute);
          track.removeEventListener("unmute", onUnmute);
        }
        deps.media?.removeEventListener?.("devicechange", onDeviceChange);
      },
    };
    current.segment = segment;
    recorder.start(deps.timesliceMs ?? RECORDER_TIMESLICE_MS);
    current.activeSince = timers.now();
    set({
      status: "recording",
      mimeType: recorder.mimeType || mimeType || null,
      alert: null,
      error: null,
      elapsedMs: current.accumulatedMs,
    });
    tick();
  }

  /** Stops the MediaRecorder (its last chunk arrives before "stop"), then releases the microphone. */
  async function endSegment(current: Active): Promise<void> {
    const segment = current.segment;
    if (!segment) return;
    current.segment = null;
    segment.detach();
    if (segment.recorder.state !== "inactive") {
      try {
        segment.recorder.stop();
      } catch {
        // Already stopping on its own.
      }
      await segment.stopped;
    }
    for (const track of segment.stream.getTracks()) track.stop();
    segment.meter?.close();
  }

  const onVisibility = () => {
    if (!active) return;
    if (deps.document.visibilityState === "visible") {
      void wake.reacquire();
    } else if (active.segment?.recorder.state === "recording") {
      // A hidden tab may be frozen or killed (mobile): write what was recorded so far.
      active.segment.recorder.requestData();
    }
  };

  function release(): void {
    stopTicking();
    deps.document.removeEventListener("visibilitychange", onVisibility);
    void wake.release();
  }

  return {
    getState: (): RecorderState => state,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    isRecording: (): boolean => state.status === "recording" || state.status === "paused" || state.status === "stopping",

    /** Starts recording a visit, or continues one an earlier page of this browser began. */
    async start(input: StartInput): Promise<void> {
      if (active || state.status === "starting") return;
      set({ ...INITIAL_RECORDER_STATE, status: "starting", visitId: input.visitId });
      if (!(await deps.locks.claim(input.visitId))) {
        set({ status: "error", error: "visit_busy" });
        return;
      }
      const current: Active = { ...input, segment: null, accumulatedMs: 0, activeSince: null, writes: Promise.resolve() };
      active = current;
      try {
        await startSegment(current);
      } catch (error) {
        active = null;
        deps.logger?.warn("recorder: could not start", { error: String(error) });
        set({ status: "error", error: startError(error) });
        return;
      }
      deps.document.addEventListener("visibilitychange", onVisibility);
      void wake.acquire();
      // Chunks an earlier page stored for this visit and did not send go out with the new ones.
      void deps.queue.track(input.visitId, input.orgId);
    },

    pause(): void {
      const segment = active?.segment;
      if (!active || !segment || state.status !== "recording") return;
      segment.recorder.pause();
      enterPaused(active);
    },

    /** Resumes; after a lost microphone this opens the microphone again as a new segment. */
    async resume(): Promise<void> {
      const current = active;
      if (!current || state.status !== "paused") return;
      if (current.segment && current.segment.recorder.state === "paused") {
        current.segment.recorder.resume();
        current.activeSince = timers.now();
        set({ status: "recording" });
        tick();
        return;
      }
      set({ status: "starting" });
      try {
        await startSegment(current);
      } catch (error) {
        deps.logger?.warn("recorder: could not resume", { error: String(error) });
        set({ status: "paused", alert: "microphone_lost", error: startError(error) });
      }
    },

    /** Flushes the last chunk, marks the visit finalized and queues its manifest. */
    async stop(): Promise<void> {
      const current = active;
      if (!current || (state.status !== "recording" && state.status !== "paused")) return;
      set({ status: "stopping", level: 0 });
      stopTicking();
      if (current.activeSince !== null) current.accumulatedMs += timers.now() - current.activeSince;
      current.activeSince = null;
      await endSegment(current);
      await current.writes;
      const durationMs = current.accumulatedMs;
      await deps.store.updateSession(current.visitId, { status: "finalized", finalizedAt: timers.now(), durationMs });
      await deps.queue.requestFinish(current.visitId, current.orgId);
      active = null;
      release();
      set({ status: "stopped", elapsedMs: durationMs, alert: null });
    },

    /** Clears an alert the user has seen (a muted microphone may come back on its own). */
    dismissAlert(): void {
      if (state.alert) set({ alert: null });
    },

    /** Back to idle after a stop or a start error, e.g. to record another visit. */
    reset(): void {
      if (active) return;
      set(INITIAL_RECORDER_STATE);
    },
  };
}

export type Recorder = ReturnType<typeof createRecorder>;
