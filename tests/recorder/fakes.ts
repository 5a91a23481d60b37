// Stand-ins for what the recorder talks to, run in Node: the visit audio API (an in-memory server
// that follows the issue 5 contract and checks SHA-256 for real), MediaRecorder and the microphone,
// Web Locks, the wake lock, and the page's document. Crypto is Node's real WebCrypto.

import { createHash, webcrypto } from "node:crypto";
import { vi } from "vitest";
import { createChunkStore } from "#app/services/recorder/chunk-store.ts";
import type { FinishManifest } from "#app/services/recorder/manifest.ts";
import type { MediaRecorderLike, MediaStreamLike, MediaTrackLike, TrackEventName } from "#app/services/recorder/media-types.ts";
import { createMemoryStorage, type RecorderStorage } from "#app/services/recorder/storage-port.ts";
import type { Timers } from "#app/services/recorder/types.ts";
import type { LockManagerLike } from "#app/services/recorder/visit-locks.ts";

export const ORG_A = "0b5c1f4e-7a0d-4d52-9a43-1c2f3e4d5a6b";
export const ORG_B = "9e8d7c6b-5a49-4382-a1f0-e9d8c7b6a5f4";
export const USER = "6f1c1e2a-4d7b-4b8e-9a51-2f0a3d6c9e10";
export const VISIT = "3d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a";
export const VISIT_2 = "7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d";

export const subtle = webcrypto.subtle as SubtleCrypto;
export const randomBytes = (length: number) => webcrypto.getRandomValues(new Uint8Array(length));

export const T0 = Date.UTC(2026, 2, 2, 9, 0, 0);

/** Fake setTimeout and Date only: setImmediate stays real so settle() can let WebCrypto and promises finish. */
export function useRecorderClock(): void {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  vi.setSystemTime(T0);
}

/** Timers as the recorder is given them, recording every delay it asks for. */
export function recordingTimers(): Timers & { delays: number[] } {
  const delays: number[] = [];
  return {
    delays,
    setTimeout: (callback, ms) => {
      delays.push(ms);
      return setTimeout(callback, ms);
    },
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    now: () => Date.now(),
  };
}

/** Lets settled promises and WebCrypto jobs (on the thread pool) run, without moving the fake clock. */
export async function settle(rounds = 30): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * Waits (on real event-loop turns, the fake clock does not move) until `check` holds; fails the test
 * with `what` after 5 s of real time. Real time, not a number of turns: WebCrypto runs on the thread pool.
 */
export async function until(check: () => boolean, what: string): Promise<void> {
  const started = performance.now();
  while (performance.now() - started < 5000) {
    if (check()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`timed out waiting for: ${what}`);
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Deterministic "audio": chunk n of a visit is 200+n bytes of a pattern that depends on n. */
export function audioBytes(n: number, length = 200 + n): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 31 + n * 17 + 7) % 251;
  return bytes;
}

export function makeStore(storage: RecorderStorage = createMemoryStorage()) {
  return createChunkStore({ storage, subtle, randomBytes, now: () => Date.now() });
}

// --- The visit audio API ---------------------------------------------------------------------------

export interface ServerRequest {
  method: string;
  path: string;
  visitId: string | null;
  seq: number | null;
  headers: Headers;
  body: Uint8Array | null;
}

type Override = (request: ServerRequest) => Response | null | Promise<Response | null>;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

/**
 * The server side of the contract: stores chunks by (visit, seq) after checking x-chunk-sha256,
 * answers duplicates and conflicts, checks completeness on finish. `offline` makes every request
 * fail like a lost network; `overrides` answer before the normal logic (first match wins, then removed
 * when `once`).
 */
export function createFakeServer() {
  const chunks = new Map<string, Map<number, { sha256: string; bytes: Uint8Array; orgId: string | null }>>();
  const finished = new Map<string, FinishManifest>();
  const requests: ServerRequest[] = [];
  const overrides: { match: Override; once: boolean }[] = [];
  const held = new Map<number, { release: () => void; promise: Promise<void> }>();
  const server = {
    offline: false,
    requests,
    chunks,
    finished,
    /** Answer with `match` when it returns a response. */
    override(match: Override, once = true) {
      overrides.push({ match, once });
    },
    /** The next PUT of `seq` waits until release(seq). */
    hold(seq: number) {
      let release: () => void = () => {};
      const promise = new Promise<void>((resolve) => {
        release = resolve;
      });
      held.set(seq, { release, promise });
    },
    release(seq: number) {
      held.get(seq)?.release();
      held.delete(seq);
    },
    /** Forget an acknowledged chunk, as a server that lost it would. */
    lose(visitId: string, seq: number) {
      chunks.get(visitId)?.delete(seq);
    },
    puts(visitId?: string) {
      return requests.filter((r) => r.method === "PUT" && (visitId === undefined || r.visitId === visitId)).map((r) => r.seq);
    },
    storedSeqs(visitId: string) {
      return [...(chunks.get(visitId)?.keys() ?? [])].sort((a, b) => a - b);
    },
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), "http://murmur.test");
      const method = init?.method ?? "GET";
      const match = url.pathname.match(/^\/api\/visits\/([^/]+)\/audio\/(?:chunks\/(\d+)|finish)$/);
      const body =
        init?.body instanceof Uint8Array
          ? new Uint8Array(init.body)
          : typeof init?.body === "string"
            ? new TextEncoder().encode(init.body)
            : null;
      const request: ServerRequest = {
        method,
        path: url.pathname,
        visitId: match?.[1] ?? null,
        seq: match?.[2] !== undefined ? Number(match[2]) : null,
        headers: new Headers(init?.headers),
        body,
      };
      requests.push(request);
      if (server.offline) throw new TypeError("Failed to fetch");
      const wait = request.seq !== null && method === "PUT" ? held.get(request.seq) : undefined;
      if (wait) await wait.promise;
      for (const [index, entry] of overrides.entries()) {
        const response = await entry.match(request);
        if (response) {
          if (entry.once) overrides.splice(index, 1);
          return response;
        }
      }
      if (url.pathname === "/api/ping") return new Response(null, { status: 204 });
      if (!match || !request.visitId) return json(404, { code: "not_found" });
      if (method === "PUT" && request.seq !== null) {
        const bytes = request.body ?? new Uint8Array();
        const sha256 = sha256Hex(bytes);
        if (sha256 !== request.headers.get("x-chunk-sha256")) return json(422, { code: "chunk_checksum_mismatch" });
        const visit = chunks.get(request.visitId) ?? new Map();
        chunks.set(request.visitId, visit);
        const existing = visit.get(request.seq);
        if (existing && existing.sha256 !== sha256) return json(409, { code: "chunk_conflict" });
        visit.set(request.seq, { sha256, bytes, orgId: request.headers.get("x-org-id") });
        return json(200, { seq: request.seq, acknowledged: true, ...(existing ? { duplicate: true } : {}) });
      }
      if (method === "POST" && url.pathname.endsWith("/finish")) {
        const manifest = JSON.parse(new TextDecoder().decode(request.body ?? new Uint8Array())) as FinishManifest;
        const have = chunks.get(request.visitId) ?? new Map();
        const missing = Array.from({ length: manifest.chunks }, (_, seq) => seq).filter((seq) => !have.has(seq));
        if (missing.length > 0) return json(409, { code: "chunks_missing", missing });
        finished.set(request.visitId, manifest);
        return json(200, { ok: true });
      }
      return json(405, { code: "method_not_allowed" });
    }) as typeof fetch,
  };
  return server;
}

export type FakeServer = ReturnType<typeof createFakeServer>;

// --- Media -----------------------------------------------------------------------------------------

export class FakeTrack implements MediaTrackLike {
  readyState: MediaStreamTrackState = "live";
  muted = false;
  stopped = false;
  private readonly target = new EventTarget();
  stop(): void {
    this.stopped = true;
    this.readyState = "ended";
  }
  addEventListener(type: TrackEventName, listener: () => void): void {
    this.target.addEventListener(type, listener);
  }
  removeEventListener(type: TrackEventName, listener: () => void): void {
    this.target.removeEventListener(type, listener);
  }
  /** The device went away (unplugged, revoked). */
  end(): void {
    this.readyState = "ended";
    this.target.dispatchEvent(new Event("ended"));
  }
  setMuted(muted: boolean): void {
    this.muted = muted;
    this.target.dispatchEvent(new Event(muted ? "mute" : "unmute"));
  }
}

export class FakeStream implements MediaStreamLike {
  readonly track = new FakeTrack();
  getAudioTracks(): MediaTrackLike[] {
    return [this.track];
  }
  getTracks(): MediaTrackLike[] {
    return [this.track];
  }
}

/**
 * A MediaRecorder driven by the test: emit(bytes) delivers a timeslice chunk; stop() delivers the
 * final chunk (finalBytes) and then "stop", asynchronously like the real one.
 */
export class FakeMediaRecorder implements MediaRecorderLike {
  state: RecordingState = "inactive";
  readonly mimeType: string;
  timeslice: number | null = null;
  requestDataCalls = 0;
  finalBytes: Uint8Array<ArrayBuffer> | null = null;
  private readonly target = new EventTarget();
  readonly stream: FakeStream;
  constructor(stream: FakeStream, mimeType: string) {
    this.stream = stream;
    this.mimeType = mimeType;
  }
  start(timeslice: number): void {
    this.timeslice = timeslice;
    this.state = "recording";
  }
  pause(): void {
    this.state = "paused";
  }
  resume(): void {
    this.state = "recording";
  }
  requestData(): void {
    this.requestDataCalls++;
  }
  stop(): void {
    if (this.state === "inactive") return;
    this.state = "inactive";
    const final = this.finalBytes;
    queueMicrotask(() => {
      if (final) this.deliver(final);
      this.target.dispatchEvent(new Event("stop"));
    });
  }
  addEventListener(type: "dataavailable" | "stop" | "error", listener: (event: { data: Blob }) => void): void {
    this.target.addEventListener(type, (event) => listener(event as unknown as { data: Blob }));
  }
  emit(bytes: Uint8Array<ArrayBuffer>): void {
    this.deliver(bytes);
  }
  private deliver(bytes: Uint8Array<ArrayBuffer>): void {
    const event = Object.assign(new Event("dataavailable"), { data: new Blob([bytes]) });
    this.target.dispatchEvent(event);
  }
}

export class FakeDocument {
  visibilityState: DocumentVisibilityState = "visible";
  private readonly target = new EventTarget();
  addEventListener(type: string, listener: (event: Event) => void): void {
    this.target.addEventListener(type, listener);
  }
  removeEventListener(type: string, listener: (event: Event) => void): void {
    this.target.removeEventListener(type, listener);
  }
  setVisibility(state: DocumentVisibilityState): void {
    this.visibilityState = state;
    this.target.dispatchEvent(new Event("visibilitychange"));
  }
}

/** navigator.locks for several "tabs": locks taken through any of them are shared. */
export function createLockRegistry() {
  const held = new Set<string>();
  return {
    held,
    manager(): LockManagerLike {
      return {
        async request(name, options, callback) {
          if (held.has(name)) {
            if (options.ifAvailable) return callback(null);
            throw new Error("the fake only supports ifAvailable");
          }
          held.add(name);
          try {
            return await callback({ name });
          } finally {
            held.delete(name);
          }
        },
      };
    },
  };
}

export function createFakeWakeLock() {
  const sentinels: { released: boolean; release(): Promise<void> }[] = [];
  return {
    sentinels,
    async request(type: "screen") {
      if (type !== "screen") throw new Error("only screen");
      const sentinel = {
        released: false,
        async release() {
          sentinel.released = true;
        },
      };
      sentinels.push(sentinel);
      return sentinel;
    },
    /** What the browser does when the tab is hidden. */
    dropAll() {
      for (const sentinel of sentinels) sentinel.released = true;
    },
  };
}
