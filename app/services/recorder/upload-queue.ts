import type { AudioApi, ChunkUploadResult, FinishResult } from "./audio-api.ts";
import { backoffDelay } from "./backoff.ts";
import { type ChunkStore, RecorderStoreError } from "./chunk-store.ts";
import { CHECKSUM_RESENDS_IMMEDIATE, FINISH_MISSING_ROUNDS, UPLOAD_PARALLELISM } from "./constants.ts";
import { manifestOf } from "./manifest.ts";
import type { ChunkMeta, FailureInfo, Timers } from "./types.ts";

export type UploadPhase = "idle" | "uploading" | "retrying" | "offline" | "unauthorized" | "error";

export interface VisitUploadState {
  visitId: string;
  pendingChunks: number;
  pendingBytes: number;
  /** Stop was pressed and the manifest is still to be accepted. */
  finishing: boolean;
  failure: FailureInfo | null;
}

/** What the UI shows: "3 chunks waiting — offline, retrying in 8 s". */
export interface UploadState {
  phase: UploadPhase;
  online: boolean;
  pendingChunks: number;
  pendingBytes: number;
  nextRetryAt: number | null;
  visits: Readonly<Record<string, VisitUploadState>>;
}

export type UploadEvent =
  | { type: "acknowledged"; visitId: string; seq: number; duplicate: boolean }
  | { type: "finished"; visitId: string }
  | { type: "failed"; visitId: string; failure: FailureInfo };

export interface UploadQueueDeps {
  store: Pick<
    ChunkStore,
    "readChunk" | "listChunks" | "acknowledge" | "markConflict" | "getSession" | "updateSession" | "deleteSession"
  >;
  api: AudioApi;
  timers: Timers;
  random(): number;
  /** navigator.onLine: a hint only — a failed request also counts as offline, a successful ping as online. */
  isOnline(): boolean;
  parallelism?: number;
  logger?: { warn(message: string, details?: Record<string, unknown>): void };
}

interface Entry {
  visitId: string;
  orgId: string;
  /** seq → plaintext size, for every chunk not yet acknowledged (in flight included). */
  pending: Map<number, number>;
  inflight: Set<number>;
  checksumFailures: Map<number, number>;
  failure: FailureInfo | null;
  finishRequested: boolean;
  finishInFlight: boolean;
  missingRounds: number;
}

/** A conflict on one seq does not stop the other chunks (the server keeps them); these refusals do. */
const NON_BLOCKING_FAILURES = new Set(["chunk_conflict"]);

/**
 * Uploads stored chunks and sends each stopped visit's manifest (issue 5). Chunks go in seq order, at
 * most two at a time, and are deleted locally only once acknowledged. Failures wait with exponential
 * back-off (1 s → 30 s, jittered); while offline the queue only pings (HEAD /api/ping) until the server
 * answers, and resumes at once on `online`, on the tab becoming visible, or on the auth client's
 * reconnect event. One queue per page handles every visit the page owns.
 */
export function createUploadQueue(deps: UploadQueueDeps) {
  const { store, api, timers } = deps;
  const parallelism = Math.max(1, Math.min(2, deps.parallelism ?? UPLOAD_PARALLELISM));
  const entries = new Map<string, Entry>();
  const listeners = new Set<() => void>();
  const eventListeners = new Set<(event: UploadEvent) => void>();
  let offline = !deps.isOnline();
  let unauthorized = false;
  let attempt = 0;
  let retryHandle: unknown = null;
  let retryAt: number | null = null;
  let pinging = false;
  /** A successful ping outranks navigator.onLine = false (it can be wrong behind some VPNs) until the next offline event. */
  let trustNavigator = true;
  const navigatorOffline = () => trustNavigator && !deps.isOnline();
  let stopped = false;
  let state: UploadState = snapshot();

  function snapshot(): UploadState {
    const visits: Record<string, VisitUploadState> = {};
    let pendingChunks = 0;
    let pendingBytes = 0;
    let working = false;
    let failed = false;
    for (const entry of entries.values()) {
      const bytes = [...entry.pending.values()].reduce((sum, size) => sum + size, 0);
      visits[entry.visitId] = {
        visitId: entry.visitId,
        pendingChunks: entry.pending.size,
        pendingBytes: bytes,
        finishing: entry.finishRequested,
        failure: entry.failure,
      };
      pendingChunks += entry.pending.size;
      pendingBytes += bytes;
      if (hasWorkFor(entry)) working = true;
      if (entry.failure) failed = true;
    }
    const phase: UploadPhase = unauthorized
      ? "unauthorized"
      : offline
        ? "offline"
        : retryHandle !== null
          ? "retrying"
          : working
            ? "uploading"
            : failed
              ? "error"
              : "idle";
    return { phase, online: !offline, pendingChunks, pendingBytes, nextRetryAt: retryAt, visits };
  }

  function emit(): void {
    state = snapshot();
    for (const listener of listeners) listener();
  }

  function fire(event: UploadEvent): void {
    for (const listener of eventListeners) listener(event);
  }

  function ensure(visitId: string, orgId: string): Entry {
    let entry = entries.get(visitId);
    if (!entry) {
      entry = {
        visitId,
        orgId,
        pending: new Map(),
        inflight: new Set(),
        checksumFailures: new Map(),
        failure: null,
        finishRequested: false,
        finishInFlight: false,
        missingRounds: 0,
      };
      entries.set(visitId, entry);
    }
    return entry;
  }

  function canUpload(entry: Entry): boolean {
    return !entry.failure || NON_BLOCKING_FAILURES.has(entry.failure.code);
  }

  function canFinish(entry: Entry): boolean {
    return (
      entry.finishRequested && !entry.finishInFlight && !entry.failure && entry.pending.size === 0 && entry.inflight.size === 0
    );
  }

  function inflightCount(): number {
    let count = 0;
    for (const entry of entries.values()) count += entry.inflight.size;
    return count;
  }

  /** The lowest waiting seq of the first visit (in the order visits arrived) that may upload. */
  function pickNext(): { entry: Entry; seq: number } | null {
    for (const entry of entries.values()) {
      if (!canUpload(entry)) continue;
      let best: number | null = null;
      for (const seq of entry.pending.keys()) {
        if (!entry.inflight.has(seq) && (best === null || seq < best)) best = seq;
      }
      if (best !== null) return { entry, seq: best };
    }
    return null;
  }

  function clearRetry(): void {
    if (retryHandle !== null) timers.clearTimeout(retryHandle);
    retryHandle = null;
    retryAt = null;
  }

  /** One timer for the whole queue: parallel failures of the same outage count as one attempt. */
  function scheduleRetry(): void {
    if (stopped || retryHandle !== null) return;
    attempt++;
    const delay = backoffDelay(attempt, deps.random());
    retryAt = timers.now() + delay;
    retryHandle = timers.setTimeout(() => {
      retryHandle = null;
      retryAt = null;
      void wake();
    }, delay);
  }

  /** After a wait (or a nudge): check the server first when offline, then go on. */
  async function wake(): Promise<void> {
    if (stopped) return;
    if (offline) {
      if (pinging) return;
      pinging = true;
      emit();
      const reachable = await api.ping();
      pinging = false;
      if (stopped) return;
      if (!reachable) {
        scheduleRetry();
        emit();
        return;
      }
      offline = false;
      trustNavigator = false;
    }
    pump();
  }

  function succeeded(): void {
    attempt = 0;
    offline = false;
    unauthorized = false;
  }

  async function failVisit(entry: Entry, failure: FailureInfo): Promise<void> {
    entry.failure = failure;
    try {
      const session = await store.getSession(entry.visitId);
      // A page still recording keeps its status so the chunks that follow are still stored.
      if (session?.status === "recording") await store.updateSession(entry.visitId, { failure });
      else await store.updateSession(entry.visitId, { status: "failed_save", failure });
    } catch (error) {
      deps.logger?.warn("recorder: could not record the failure", { visitId: entry.visitId, error: String(error) });
    }
    fire({ type: "failed", visitId: entry.visitId, failure });
  }

  /**
   * Reads (decrypts) the chunk and starts its request. Calls are chained so requests leave in seq
   * order even with two in flight; only the answers may come back out of order.
   */
  let issueChain: Promise<unknown> = Promise.resolve();
  function issueUpload(entry: Entry, seq: number): Promise<{ answer: Promise<ChunkUploadResult | "gone" | FailureInfo> }> {
    const issued = issueChain.then(async () => {
      let chunk: Awaited<ReturnType<typeof store.readChunk>>;
      try {
        chunk = await store.readChunk(entry.visitId, seq);
      } catch (error) {
        // An unreadable chunk will not heal; a storage hiccup (aborted transaction) may.
        if (error instanceof RecorderStoreError) return { answer: Promise.resolve({ code: error.code, seq, at: timers.now() }) };
        deps.logger?.warn("recorder: chunk could not be read", { visitId: entry.visitId, seq, error: String(error) });
        return { answer: Promise.resolve({ kind: "retry" as const, status: 0 }) };
      }
      if (!chunk) return { answer: Promise.resolve("gone" as const) };
      const answer = api.putChunk({
        visitId: entry.visitId,
        orgId: entry.orgId,
        seq,
        data: chunk.data,
        sha256: chunk.meta.sha256,
        mimeType: chunk.mimeType,
      });
      return { answer };
    });
    issueChain = issued.catch(() => undefined);
    return issued;
  }

  async function handleUpload(entry: Entry, seq: number, result: ChunkUploadResult | "gone" | FailureInfo): Promise<void> {
    if (result === "gone") {
      entry.pending.delete(seq);
      return;
    }
    if ("code" in result && !("kind" in result)) {
      await failVisit(entry, result);
      return;
    }
    switch (result.kind) {
      case "ack":
        try {
          await store.acknowledge(entry.visitId, seq);
        } catch (error) {
          // The server has it; a leftover copy is re-sent later and answered as a duplicate.
          deps.logger?.warn("recorder: acknowledged chunk not deleted", { visitId: entry.visitId, seq, error: String(error) });
        }
        entry.pending.delete(seq);
        entry.checksumFailures.delete(seq);
        succeeded();
        fire({ type: "acknowledged", visitId: entry.visitId, seq, duplicate: result.duplicate });
        return;
      case "checksum_mismatch": {
        const failures = (entry.checksumFailures.get(seq) ?? 0) + 1;
        entry.checksumFailures.set(seq, failures);
        if (failures > CHECKSUM_RESENDS_IMMEDIATE) scheduleRetry();
        return;
      }
      case "conflict":
        await store.markConflict(entry.visitId, seq);
        entry.pending.delete(seq);
        await failVisit(entry, { code: "chunk_conflict", seq, at: timers.now() });
        return;
      case "unauthorized":
        unauthorized = true;
        scheduleRetry();
        return;
      case "retry":
        scheduleRetry();
        return;
      case "network":
        goOffline();
        scheduleRetry();
        return;
      case "rejected":
        await failVisit(entry, { code: result.code, seq, at: timers.now() });
        return;
    }
  }

  function startUpload(entry: Entry, seq: number): void {
    entry.inflight.add(seq);
    void (async () => {
      try {
        const { answer } = await issueUpload(entry, seq);
        await handleUpload(entry, seq, await answer);
      } catch (error) {
        deps.logger?.warn("recorder: upload step failed", { visitId: entry.visitId, seq, error: String(error) });
        scheduleRetry();
      } finally {
        entry.inflight.delete(seq);
        pump();
      }
    })();
  }

  async function handleFinish(entry: Entry, result: FinishResult): Promise<void> {
    switch (result.kind) {
      case "ok":
        await store.deleteSession(entry.visitId);
        succeeded();
        entries.delete(entry.visitId);
        fire({ type: "finished", visitId: entry.visitId });
        return;
      case "chunks_missing": {
        entry.missingRounds++;
        const stored = new Map((await store.listChunks(entry.visitId)).map((meta) => [meta.seq, meta]));
        const lost = result.missing.filter((seq) => stored.get(seq)?.state !== "pending");
        if (lost.length > 0 || entry.missingRounds > FINISH_MISSING_ROUNDS) {
          await failVisit(entry, { code: "chunks_missing", missing: lost.length > 0 ? lost : result.missing, at: timers.now() });
          return;
        }
        for (const seq of result.missing) entry.pending.set(seq, stored.get(seq)?.size ?? 0);
        return;
      }
      case "unauthorized":
        unauthorized = true;
        scheduleRetry();
        return;
      case "retry":
        scheduleRetry();
        return;
      case "network":
        goOffline();
        scheduleRetry();
        return;
      case "rejected":
        await failVisit(entry, { code: result.code, at: timers.now() });
        return;
    }
  }

  async function markOfflineTranscription(entry: Entry): Promise<void> {
    const session = await store.getSession(entry.visitId);
    if (session?.status === "finalized") await store.updateSession(entry.visitId, { status: "offline_transcription" });
  }

  /** Offline: stopped visits now wait for the connection before transcription can be asked for. */
  function goOffline(): void {
    offline = true;
    for (const entry of entries.values()) {
      if (!entry.finishRequested || entry.failure) continue;
      markOfflineTranscription(entry).catch((error: unknown) =>
        deps.logger?.warn("recorder: status not saved", { visitId: entry.visitId, error: String(error) }),
      );
    }
  }

  async function manifestFor(entry: Entry) {
    const session = await store.getSession(entry.visitId);
    return session ? manifestOf(session) : null;
  }

  function startFinish(entry: Entry): void {
    entry.finishInFlight = true;
    void (async () => {
      try {
        const manifest = await manifestFor(entry);
        if (!manifest) {
          // Already finished by another page of this browser.
          entries.delete(entry.visitId);
          return;
        }
        await handleFinish(entry, await api.finish(entry.visitId, entry.orgId, manifest));
      } catch (error) {
        deps.logger?.warn("recorder: finish step failed", { visitId: entry.visitId, error: String(error) });
        scheduleRetry();
      } finally {
        entry.finishInFlight = false;
        pump();
      }
    })();
  }

  function pump(): void {
    if (stopped) return;
    // navigator.onLine = false is reliable (true is not): no request can succeed, so only ping.
    if (!offline && navigatorOffline()) goOffline();
    if (retryHandle !== null || pinging) {
      emit();
      return;
    }
    if (offline) {
      if (hasWork()) scheduleRetry();
      emit();
      return;
    }
    let next = inflightCount() < parallelism ? pickNext() : null;
    while (next) {
      startUpload(next.entry, next.seq);
      next = inflightCount() < parallelism ? pickNext() : null;
    }
    for (const entry of entries.values()) if (canFinish(entry)) startFinish(entry);
    emit();
  }

  /** Something this page can still send for the visit (a refused visit keeps its chunks but waits for the user). */
  function hasWorkFor(entry: Entry): boolean {
    return (
      entry.inflight.size > 0 ||
      entry.finishInFlight ||
      (canUpload(entry) && entry.pending.size > 0) ||
      (entry.finishRequested && !entry.failure)
    );
  }

  function hasWork(): boolean {
    for (const entry of entries.values()) if (hasWorkFor(entry)) return true;
    return false;
  }

  /** A nudge from outside (online, visible, reconnect): forget the wait and try now. */
  function nudge(): void {
    if (stopped) return;
    clearRetry();
    void wake();
  }

  return {
    getState: (): UploadState => state,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onEvent(listener: (event: UploadEvent) => void): () => void {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },

    /** A chunk the recorder just stored. */
    add(meta: ChunkMeta): void {
      const entry = ensure(meta.visitId, meta.orgId);
      if (meta.state === "pending") entry.pending.set(meta.seq, meta.size);
      pump();
    },

    /** Takes over a visit's stored chunks (recovery, or a recording resumed after a reload). */
    async track(visitId: string, orgId: string): Promise<number> {
      const entry = ensure(visitId, orgId);
      const chunks = await store.listChunks(visitId);
      for (const meta of chunks) if (meta.state === "pending") entry.pending.set(meta.seq, meta.size);
      const session = await store.getSession(visitId);
      if (session?.failure && !entry.failure) entry.failure = session.failure;
      pump();
      return entry.pending.size;
    },

    /** Stop was pressed (or a stopped visit was recovered): send the manifest once every chunk is acknowledged. */
    async requestFinish(visitId: string, orgId: string): Promise<void> {
      const entry = ensure(visitId, orgId);
      entry.finishRequested = true;
      entry.missingRounds = 0;
      if (entry.failure) {
        await failVisit(entry, entry.failure);
      } else if (offline || navigatorOffline()) {
        await markOfflineTranscription(entry);
      }
      pump();
    },

    /** The user asks to try a failed visit again (e.g. after the trial was upgraded). */
    async retryVisit(visitId: string): Promise<void> {
      const session = await store.getSession(visitId);
      if (!session) return;
      const entry = ensure(visitId, session.orgId);
      entry.failure = null;
      entry.missingRounds = 0;
      await store.updateSession(visitId, {
        status: session.status === "recording" ? "recording" : session.finalizedAt !== null ? "finalized" : "pending_save",
        failure: null,
      });
      for (const meta of await store.listChunks(visitId)) if (meta.state === "pending") entry.pending.set(meta.seq, meta.size);
      entry.finishRequested = session.finalizedAt !== null;
      pump();
    },

    handleOnline(): void {
      trustNavigator = true;
      offline = false;
      attempt = 0;
      nudge();
    },
    handleOffline(): void {
      trustNavigator = true;
      goOffline();
      if (hasWork()) scheduleRetry();
      emit();
    },
    /** Tab visible again: if anything is waiting, check now instead of at the end of the back-off. */
    handleVisible(): void {
      if (hasWork() && (retryHandle !== null || offline || unauthorized)) nudge();
    },
    /** SPEC §4: the auth client's reconnect event on /transcribing, with the result of its own ping. */
    handleReconnect(online: boolean): void {
      if (!online) return;
      offline = false;
      nudge();
    },

    /** Whether this page still holds audio the server has not acknowledged (or a manifest not accepted). */
    hasUnsentAudio: (): boolean => hasWork(),
    hasUnsentAudioFor: (visitId: string): boolean => {
      const entry = entries.get(visitId);
      return !!entry && hasWorkFor(entry);
    },
    /** Visits this queue is responsible for (recovery does not claim them twice). */
    isTracking: (visitId: string): boolean => entries.has(visitId),

    stop(): void {
      stopped = true;
      clearRetry();
    },
  };
}

export type UploadQueue = ReturnType<typeof createUploadQueue>;
