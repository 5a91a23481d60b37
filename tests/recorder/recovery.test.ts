// Issue 5: on every page load, the audio an earlier page left (SPEC §4 key families) is uploaded, and
// stopped visits are finished. A "page" here is a runtime; a reload is a new runtime on the same storage.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createMemoryStorage } from "#app/services/recorder/storage-port.ts";
import {
  audioBytes,
  createFakeServer,
  createLockRegistry,
  makeStore,
  ORG_A,
  ORG_B,
  settle,
  USER,
  until,
  useRecorderClock,
  VISIT,
  VISIT_2,
} from "./fakes.ts";
import { openTab } from "./harness.ts";

beforeEach(() => useRecorderClock());
afterEach(() => vi.useRealTimers());

const OTHER_USER = "0b7f3c55-1d2e-4f60-8a9b-c0d1e2f3a4b5";

/** What a page that died mid-recording leaves: a "recording" session and its unsent chunks. */
async function leftBehind(
  storage = createMemoryStorage(),
  options: { visitId?: string; orgId?: string; userId?: string; chunks?: number } = {},
) {
  const visitId = options.visitId ?? VISIT;
  const store = makeStore(storage);
  await store.openSession({ visitId, orgId: options.orgId ?? ORG_A, userId: options.userId ?? USER, mimeType: "audio/webm" });
  for (let seq = 0; seq < (options.chunks ?? 3); seq++) await store.appendChunk(visitId, audioBytes(seq), 3000 * (seq + 1));
  return { storage, store };
}

describe("recovery", () => {
  it("uploads an interrupted recording's chunks in order and keeps it open to be resumed", async () => {
    const { storage } = await leftBehind();
    const tab = openTab({ storage });
    const report = await tab.runtime.recover(ORG_A, USER);
    expect(report).toMatchObject({
      uploading: [{ visitId: VISIT, chunks: 3, bytes: 603 }],
      finishing: [],
      interrupted: [VISIT],
      failed: [],
      busy: [],
    });
    await until(() => tab.runtime.queue.getState().phase === "idle", "uploaded");
    expect(tab.server.puts(VISIT)).toEqual([0, 1, 2]);
    expect(tab.server.finished.has(VISIT)).toBe(false);
    expect([...storage.dump("sessions").keys()]).toEqual([`pending_save_${VISIT}`]);
    expect((await tab.runtime.store.getSession(VISIT))?.status).toBe("pending_save");
    expect(storage.dump("chunks").size).toBe(0);
    await until(() => tab.locks.held.size === 0, "the visit is free for whichever tab resumes it");
  });

  it("a resumed recording continues the sequence and Stop finishes the whole visit", async () => {
    const { storage } = await leftBehind(undefined, { chunks: 2 });
    const tab = openTab({ storage });
    await tab.runtime.recover(ORG_A, USER);
    await tab.runtime.recorder.start({ visitId: VISIT, orgId: ORG_A, userId: USER });
    tab.media.finalBytes = audioBytes(2);
    await tab.runtime.recorder.stop();
    await until(() => tab.server.finished.has(VISIT), "finished");
    expect(tab.server.storedSeqs(VISIT)).toEqual([0, 1, 2]);
    expect(tab.server.finished.get(VISIT)?.chunks).toBe(3);
  });

  it("finishes a visit that was stopped before the reload", async () => {
    const { storage, store } = await leftBehind();
    await store.updateSession(VISIT, { status: "finalized", finalizedAt: Date.now(), durationMs: 9000 });
    const tab = openTab({ storage });
    const report = await tab.runtime.recover(ORG_A, USER);
    expect(report.finishing).toEqual([VISIT]);
    await until(() => tab.server.finished.has(VISIT), "finished");
    expect(tab.server.finished.get(VISIT)).toEqual({
      chunks: 3,
      bytes: 603,
      duration_ms: 9000,
      mime_type: "audio/webm",
      segments: [{ start_ms: 0, end_ms: 9000 }],
    });
    expect(storage.dump("sessions").size).toBe(0);
    expect(storage.dump("chunks").size).toBe(0);
  });

  it("sends an offline_transcription visit's manifest once the server answers", async () => {
    const { storage, store } = await leftBehind(undefined, { chunks: 1 });
    await store.updateSession(VISIT, { status: "offline_transcription", finalizedAt: Date.now() });
    const server = createFakeServer();
    server.offline = true;
    const tab = openTab({ storage, server });
    await tab.runtime.recover(ORG_A, USER);
    await settle();
    expect(server.finished.size).toBe(0);
    server.offline = false;
    tab.runtime.queue.handleOnline();
    await until(() => server.finished.has(VISIT), "finished");
  });

  it("leaves other organisations' and other users' audio alone", async () => {
    const { storage } = await leftBehind(undefined, { orgId: ORG_B });
    await leftBehind(storage, { visitId: VISIT_2, userId: OTHER_USER });
    const tab = openTab({ storage });
    const report = await tab.runtime.recover(ORG_A, USER);
    expect(report.uploading).toEqual([]);
    await settle();
    expect(tab.server.requests).toEqual([]);
    expect(storage.dump("chunks").size).toBe(6);
  });

  it("leaves a recording another tab is still making to that tab", async () => {
    const locks = createLockRegistry();
    const server = createFakeServer();
    const recordingTab = openTab({ locks, server });
    await recordingTab.runtime.recorder.start({ visitId: VISIT, orgId: ORG_A, userId: USER });
    server.offline = true;
    recordingTab.media.emit(audioBytes(0));
    await until(() => recordingTab.runtime.recorder.getState().chunksStored === 1, "stored");

    const newTab = openTab({ storage: recordingTab.storage, locks, server });
    const report = await newTab.runtime.recover(ORG_A, USER);
    expect(report.busy).toEqual([VISIT]);
    expect((await newTab.runtime.store.getSession(VISIT))?.status).toBe("recording");
  });

  it("adopts chunks stored without a session record", async () => {
    const { storage } = await leftBehind(undefined, { chunks: 2 });
    await storage.commit([{ type: "delete", store: "sessions", key: `pending_save_${VISIT}` }]);
    const tab = openTab({ storage });
    const report = await tab.runtime.recover(ORG_A, USER);
    expect(report.uploading).toEqual([{ visitId: VISIT, chunks: 2, bytes: 401 }]);
    await until(() => tab.server.storedSeqs(VISIT).length === 2, "uploaded");
  });

  it("reports, without retrying, a visit the server refused for good", async () => {
    const { storage, store } = await leftBehind(undefined, { chunks: 1 });
    await store.updateSession(VISIT, { status: "failed_save", finalizedAt: 1, failure: { code: "visit_closed", at: 1 } });
    const tab = openTab({ storage });
    const report = await tab.runtime.recover(ORG_A, USER);
    expect(report.failed).toEqual([{ visitId: VISIT, code: "visit_closed" }]);
    await settle();
    expect(tab.server.requests).toEqual([]);
    expect(storage.dump("chunks").size).toBe(1);
  });

  it("tries again a visit refused for a reason that may have changed (trial ended)", async () => {
    const { storage, store } = await leftBehind(undefined, { chunks: 1 });
    await store.updateSession(VISIT, { status: "failed_save", finalizedAt: 1, failure: { code: "trial_ended", at: 1 } });
    const tab = openTab({ storage });
    const report = await tab.runtime.recover(ORG_A, USER);
    expect(report.finishing).toEqual([VISIT]);
    await until(() => tab.server.finished.has(VISIT), "finished");
  });

  it("runs once per page load", async () => {
    const { storage } = await leftBehind(undefined, { chunks: 1 });
    const tab = openTab({ storage });
    const first = tab.runtime.recover(ORG_A, USER);
    expect(tab.runtime.recover(ORG_A, USER)).toBe(first);
  });
});
