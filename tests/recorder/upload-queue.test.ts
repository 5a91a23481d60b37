// Issue 5 upload queue against the chunk API contract: seq order, idempotent acks, deletion only after
// the server's acknowledgement, 422 resend, offline → queued → online, back-off timings, 409 handling,
// manifest with chunks_missing resend.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createAudioApi } from "#app/services/recorder/audio-api.ts";
import { backoffDelay } from "#app/services/recorder/backoff.ts";
import { bindQueueToWindow } from "#app/services/recorder/connectivity.ts";
import { createMemoryStorage } from "#app/services/recorder/storage-port.ts";
import type { ChunkMeta } from "#app/services/recorder/types.ts";
import { createUploadQueue, type UploadEvent } from "#app/services/recorder/upload-queue.ts";
import {
  audioBytes,
  createFakeServer,
  FakeDocument,
  makeStore,
  ORG_A,
  recordingTimers,
  settle,
  sha256Hex,
  USER,
  until,
  useRecorderClock,
  VISIT,
} from "./fakes.ts";

beforeEach(() => useRecorderClock());
afterEach(() => vi.useRealTimers());

interface SetupOptions {
  online?: boolean;
  parallelism?: number;
}

async function setup(chunkCount: number, options: SetupOptions = {}) {
  const server = createFakeServer();
  const storage = createMemoryStorage();
  const store = makeStore(storage);
  const timers = recordingTimers();
  const net = { online: options.online ?? true };
  const queue = createUploadQueue({
    store,
    api: createAudioApi({ fetch: server.fetch }),
    timers,
    random: () => 0.5,
    isOnline: () => net.online,
    parallelism: options.parallelism ?? 1,
  });
  const events: UploadEvent[] = [];
  queue.onEvent((event) => events.push(event));
  await store.openSession({ visitId: VISIT, orgId: ORG_A, userId: USER, mimeType: "audio/webm" });
  const metas: ChunkMeta[] = [];
  for (let seq = 0; seq < chunkCount; seq++) metas.push(await store.appendChunk(VISIT, audioBytes(seq), 3000 * (seq + 1)));
  const addAll = () => {
    for (const meta of metas) queue.add(meta);
  };
  const stored = async () => (await store.listChunks(VISIT)).map((chunk) => chunk.seq);
  return { server, storage, store, timers, net, queue, events, addAll, stored };
}

describe("uploading", () => {
  it("sends chunks in seq order with their SHA-256 and organisation, deleting each only after its ack", async () => {
    const t = await setup(4);
    t.addAll();
    await until(() => t.queue.getState().phase === "idle", "queue idle");
    expect(t.server.puts()).toEqual([0, 1, 2, 3]);
    for (const request of t.server.requests) {
      expect(request.headers.get("x-org-id")).toBe(ORG_A);
      expect(request.headers.get("x-chunk-sha256")).toBe(sha256Hex(audioBytes(request.seq ?? -1)));
    }
    expect(t.server.storedSeqs(VISIT)).toEqual([0, 1, 2, 3]);
    expect(await t.stored()).toEqual([]);
    expect(t.queue.hasUnsentAudio()).toBe(false);
  });

  it("keeps every local copy while the server fails, and deletes none before an ack", async () => {
    const t = await setup(2);
    t.server.override(() => new Response(null, { status: 503 }), false);
    t.addAll();
    await until(() => t.queue.getState().phase === "retrying", "retrying");
    expect(await t.stored()).toEqual([0, 1]);
    expect(t.queue.getState()).toMatchObject({ pendingChunks: 2, pendingBytes: 200 + 201 });
    expect(t.queue.hasUnsentAudio()).toBe(true);
  });

  it("handles out-of-order acknowledgements with two uploads in flight", async () => {
    const t = await setup(3, { parallelism: 2 });
    t.server.hold(0);
    t.addAll();
    await until(() => t.server.puts().length === 3, "1 acked while 0 is held, then 2 starts");
    await until(() => t.events.length === 2, "acks of 1 and 2");
    expect(t.server.puts()).toEqual([0, 1, 2]); // requests leave in seq order; only answers cross
    expect(t.events.map((e) => (e.type === "acknowledged" ? e.seq : -1))).toEqual([1, 2]);
    expect(await t.stored()).toEqual([0]);
    t.server.release(0);
    await until(() => t.queue.getState().phase === "idle", "idle");
    expect(await t.stored()).toEqual([]);
    expect(t.server.storedSeqs(VISIT)).toEqual([0, 1, 2]);
  });

  it("treats a duplicate acknowledgement like any other (idempotent re-send)", async () => {
    const t = await setup(1);
    t.server.chunks.set(VISIT, new Map([[0, { sha256: sha256Hex(audioBytes(0)), bytes: audioBytes(0), orgId: ORG_A }]]));
    t.addAll();
    await until(() => t.events.length === 1, "ack");
    expect(t.events[0]).toEqual({ type: "acknowledged", visitId: VISIT, seq: 0, duplicate: true });
    expect(await t.stored()).toEqual([]);
  });

  it("resends a chunk answered 422 chunk_checksum_mismatch", async () => {
    const t = await setup(2);
    // Damage seq 1 on the way once: the server's SHA-256 of what arrived differs.
    t.server.override((request) =>
      request.seq === 1 ? new Response(JSON.stringify({ code: "chunk_checksum_mismatch" }), { status: 422 }) : null,
    );
    t.addAll();
    await until(() => t.queue.getState().phase === "idle", "idle");
    expect(t.server.puts()).toEqual([0, 1, 1]);
    expect(t.server.storedSeqs(VISIT)).toEqual([0, 1]);
    expect(await t.stored()).toEqual([]);
    expect(t.timers.delays).toEqual([]); // resent at once, no back-off
  });
});

describe("offline", () => {
  it("queues while offline and uploads everything, in order, when back online", async () => {
    const t = await setup(0, { online: false });
    t.server.offline = true;
    const win = new EventTarget();
    const doc = new FakeDocument();
    bindQueueToWindow(t.queue, win, doc);
    for (let seq = 0; seq < 5; seq++) t.queue.add(await t.store.appendChunk(VISIT, audioBytes(seq), 3000 * (seq + 1)));
    await settle();
    expect(t.queue.getState()).toMatchObject({ phase: "offline", online: false, pendingChunks: 5 });
    expect(t.server.puts()).toEqual([]);
    expect(await t.stored()).toEqual([0, 1, 2, 3, 4]);

    t.server.offline = false;
    t.net.online = true;
    win.dispatchEvent(new Event("online"));
    await until(() => t.queue.getState().phase === "idle", "idle");
    expect(t.server.puts()).toEqual([0, 1, 2, 3, 4]);
    expect(await t.stored()).toEqual([]);
  });

  it("a failed request means offline: it pings with back-off and resumes when the ping answers", async () => {
    const t = await setup(2);
    t.server.offline = true;
    t.addAll();
    await until(() => t.queue.getState().phase === "offline", "offline");
    expect(t.timers.delays).toEqual([1000]);
    await vi.advanceTimersByTimeAsync(1000);
    await settle();
    const pings = () => t.server.requests.filter((r) => r.method === "HEAD" && r.path === "/api/ping").length;
    expect(pings()).toBe(1);
    expect(t.timers.delays).toEqual([1000, 2000]);

    t.server.offline = false;
    await vi.advanceTimersByTimeAsync(2000);
    await until(() => t.queue.getState().phase === "idle", "idle");
    expect(pings()).toBe(2);
    expect(t.server.storedSeqs(VISIT)).toEqual([0, 1]);
  });

  it("trusts a successful ping over navigator.onLine = false", async () => {
    const t = await setup(2, { online: false });
    t.addAll();
    await until(() => t.queue.getState().phase === "offline", "offline");
    expect(t.server.puts()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    await until(() => t.queue.getState().phase === "idle", "uploaded after the ping");
    expect(t.server.puts()).toEqual([0, 1]);
  });

  it("resumes on the tab becoming visible and on the auth client's reconnect event", async () => {
    const t = await setup(1);
    t.server.offline = true;
    const win = new EventTarget();
    const doc = new FakeDocument();
    bindQueueToWindow(t.queue, win, doc);
    t.addAll();
    await until(() => t.queue.getState().phase === "offline", "offline");
    t.server.offline = false;
    doc.setVisibility("hidden");
    doc.setVisibility("visible");
    await until(() => t.queue.getState().phase === "idle", "idle after visible");
    expect(t.server.storedSeqs(VISIT)).toEqual([0]);

    t.server.offline = true;
    t.queue.add(await t.store.appendChunk(VISIT, audioBytes(1), 6000));
    await until(() => t.queue.getState().phase === "offline", "offline again");
    t.server.offline = false;
    win.dispatchEvent(new CustomEvent("murmur:reconnect", { detail: { online: true } }));
    await until(() => t.queue.getState().phase === "idle", "idle after reconnect");
    expect(t.server.storedSeqs(VISIT)).toEqual([0, 1]);
  });
});

describe("back-off", () => {
  it("waits 1, 2, 4, 8, 16, then 30 s (cap) between retries, and not a moment less", async () => {
    const t = await setup(1);
    t.server.override(() => new Response(null, { status: 503 }), false);
    t.addAll();
    await until(() => t.timers.delays.length === 1, "first retry scheduled");
    for (const expected of [1000, 2000, 4000, 8000, 16000, 30000, 30000]) {
      expect(t.timers.delays.at(-1)).toBe(expected);
      const before = t.server.puts().length;
      await vi.advanceTimersByTimeAsync(expected - 1);
      expect(t.server.puts().length).toBe(before);
      await vi.advanceTimersByTimeAsync(1);
      await until(() => t.server.puts().length === before + 1, "retry sent");
      await until(() => t.timers.delays.length > 0 && t.queue.getState().phase === "retrying", "next retry scheduled");
    }
    expect(t.queue.getState().nextRetryAt).toBe(Date.now() + 30000);
  });

  it("jitters each delay by at most ±25 % and never past 30 s", () => {
    for (let attempt = 1; attempt <= 10; attempt++) {
      const exact = Math.min(30000, 1000 * 2 ** (attempt - 1));
      expect(backoffDelay(attempt, 0)).toBe(Math.round(exact * 0.75));
      expect(backoffDelay(attempt, 0.999)).toBeLessThanOrEqual(Math.min(30000, Math.round(exact * 1.25)));
      if (exact * 1.25 <= 30000) expect(backoffDelay(attempt, 0.999)).toBeGreaterThan(exact);
      else expect(backoffDelay(attempt, 0.999)).toBe(30000);
    }
  });

  it("starts again from 1 s after a success", async () => {
    const t = await setup(2);
    t.server.override((r) => (r.seq === 0 ? new Response(null, { status: 500 }) : null));
    t.server.override((r) => (r.seq === 1 ? new Response(null, { status: 500 }) : null));
    t.addAll();
    await until(() => t.timers.delays.length === 1, "first failure");
    await vi.advanceTimersByTimeAsync(1000);
    await until(() => t.timers.delays.length === 2, "seq 1 fails after seq 0 succeeded");
    expect(t.timers.delays).toEqual([1000, 1000]);
  });
});

describe("refusals", () => {
  it("409 chunk_conflict keeps the local copy aside and reports the visit as failed", async () => {
    const t = await setup(2);
    t.server.override((r) => (r.seq === 0 ? new Response(JSON.stringify({ code: "chunk_conflict" }), { status: 409 }) : null));
    t.addAll();
    await until(() => t.events.some((e) => e.type === "failed"), "failed event");
    await until(() => t.queue.getState().phase === "error", "error phase");
    const chunks = await t.store.listChunks(VISIT);
    expect(chunks.map((c) => [c.seq, c.state])).toEqual([[0, "conflict"]]);
    expect(t.server.storedSeqs(VISIT)).toEqual([1]);
    expect(t.queue.getState().visits[VISIT]?.failure).toMatchObject({ code: "chunk_conflict", seq: 0 });
  });

  it("after a 401, the auth client's session refresh sends the chunks without waiting for the back-off", async () => {
    const t = await setup(1);
    const win = new EventTarget();
    bindQueueToWindow(t.queue, win, new FakeDocument());
    t.server.override(() => new Response(JSON.stringify({ code: "not_authenticated" }), { status: 401 }));
    t.addAll();
    await until(() => t.queue.getState().phase === "unauthorized", "unauthorized");
    win.dispatchEvent(new Event("murmur:refreshed-data"));
    await until(() => t.queue.getState().phase === "idle", "idle without moving the clock");
    expect(await t.stored()).toEqual([]);
  });

  it("401 keeps everything and retries until signed in again", async () => {
    const t = await setup(1);
    t.server.override(() => new Response(JSON.stringify({ code: "not_authenticated" }), { status: 401 }));
    t.addAll();
    await until(() => t.queue.getState().phase === "unauthorized", "unauthorized");
    expect(await t.stored()).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1000);
    await until(() => t.queue.getState().phase === "idle", "idle");
    expect(await t.stored()).toEqual([]);
  });

  it("402 trial_ended stops the visit's uploads, keeps its chunks and marks it failed_save once stopped", async () => {
    const t = await setup(3);
    t.server.override((r) => (r.seq === 0 ? new Response(JSON.stringify({ code: "trial_ended" }), { status: 402 }) : null));
    await t.store.updateSession(VISIT, { status: "finalized", finalizedAt: Date.now() });
    t.addAll();
    await t.queue.requestFinish(VISIT, ORG_A);
    await until(() => t.queue.getState().phase === "error", "error");
    expect(t.server.puts()).toEqual([0]);
    expect(await t.stored()).toEqual([0, 1, 2]);
    expect(await t.store.getSession(VISIT)).toMatchObject({ status: "failed_save", failure: { code: "trial_ended" } });
    expect(t.queue.hasUnsentAudio()).toBe(false);
    expect(t.server.requests.some((r) => r.path.endsWith("/finish"))).toBe(false);
  });
});

describe("finish", () => {
  it("sends the manifest once every chunk is acknowledged, then forgets the session", async () => {
    const t = await setup(3);
    await t.store.updateSession(VISIT, { status: "finalized", finalizedAt: Date.now() });
    t.addAll();
    await t.queue.requestFinish(VISIT, ORG_A);
    await until(() => t.events.some((e) => e.type === "finished"), "finished");
    const finish = t.server.requests.filter((r) => r.path.endsWith("/finish"));
    expect(finish).toHaveLength(1);
    expect(t.server.requests.indexOf(finish[0] as (typeof finish)[number])).toBe(3);
    expect(t.server.finished.get(VISIT)).toEqual({
      chunks: 3,
      bytes: 200 + 201 + 202,
      duration_ms: 9000,
      mime_type: "audio/webm",
      segments: [{ start_ms: 0, end_ms: 9000 }],
    });
    expect(finish[0]?.headers.get("x-org-id")).toBe(ORG_A);
    expect(await t.store.getSession(VISIT)).toBeNull();
  });

  it("409 chunks_missing: re-uploads the missing chunks still stored, then finishes", async () => {
    const t = await setup(3);
    await t.store.updateSession(VISIT, { status: "finalized", finalizedAt: Date.now() });
    // The server acknowledges seq 1 but loses it, and the local delete of seq 1 fails: the copy is still here.
    t.server.override((r) => {
      if (r.seq !== 1) return null;
      return new Response(JSON.stringify({ seq: 1, acknowledged: true }), { status: 200 });
    });
    const acknowledge = t.store.acknowledge;
    t.store.acknowledge = async (visitId, seq) => {
      if (seq === 1) throw new Error("transaction aborted");
      return acknowledge(visitId, seq);
    };
    t.addAll();
    await t.queue.requestFinish(VISIT, ORG_A);
    await until(() => t.events.some((e) => e.type === "finished"), "finished");
    const sequence = t.server.requests.map((r) => (r.path.endsWith("/finish") ? "finish" : r.seq));
    expect(sequence).toEqual([0, 1, 2, "finish", 1, "finish"]);
    expect(t.server.storedSeqs(VISIT)).toEqual([0, 1, 2]);
    expect(t.server.finished.has(VISIT)).toBe(true);
  });

  it("409 chunks_missing for a chunk no longer stored here: failed_save, listing what is lost", async () => {
    const t = await setup(2);
    await t.store.updateSession(VISIT, { status: "finalized", finalizedAt: Date.now() });
    t.addAll();
    await until(() => t.server.storedSeqs(VISIT).length === 2, "both uploaded");
    t.server.lose(VISIT, 0);
    await t.queue.requestFinish(VISIT, ORG_A);
    await until(() => t.events.some((e) => e.type === "failed"), "failed");
    expect(await t.store.getSession(VISIT)).toMatchObject({
      status: "failed_save",
      failure: { code: "chunks_missing", missing: [0] },
    });
  });

  it("a manifest that cannot be sent offline waits as offline_transcription and goes out on reconnect", async () => {
    const t = await setup(1);
    await t.store.updateSession(VISIT, { status: "finalized", finalizedAt: Date.now() });
    t.addAll();
    await until(() => t.queue.getState().phase === "idle", "chunk sent");
    t.server.offline = true;
    await t.queue.requestFinish(VISIT, ORG_A);
    await until(() => t.queue.getState().phase === "offline", "offline");
    await until(() => t.storage.dump("sessions").has(`offline_transcription_${VISIT}`), "offline_transcription record");
    expect(t.queue.hasUnsentAudio()).toBe(true);
    t.server.offline = false;
    t.queue.handleReconnect(true);
    await until(() => t.events.some((e) => e.type === "finished"), "finished");
    expect(t.storage.dump("sessions").size).toBe(0);
  });
});
