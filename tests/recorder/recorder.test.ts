// Issue 5 "Recording": the MediaRecorder wrapper with its chunk path (store first, then queue), pause and
// elapsed time, level meter, wake lock, microphone loss, and Stop → manifest.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RECORDER_TIMESLICE_MS } from "#app/services/recorder/constants.ts";
import { audioBytes, ORG_A, settle, sha256Hex, USER, until, useRecorderClock, VISIT } from "./fakes.ts";
import { openTab, type Tab } from "./harness.ts";

beforeEach(() => useRecorderClock());
afterEach(() => vi.useRealTimers());

const START = { visitId: VISIT, orgId: ORG_A, userId: USER };

async function recording(tab: Tab = openTab()): Promise<Tab> {
  await tab.runtime.recorder.start(START);
  expect(tab.runtime.recorder.getState().status).toBe("recording");
  return tab;
}

describe("start", () => {
  it("records Opus in WebM when the browser has it, with a timeslice between 2 and 5 s", async () => {
    const tab = await recording();
    expect(tab.recorderOptions).toEqual([{ mimeType: "audio/webm;codecs=opus" }]);
    expect(tab.media.timeslice).toBe(RECORDER_TIMESLICE_MS);
    expect(RECORDER_TIMESLICE_MS).toBeGreaterThanOrEqual(2000);
    expect(RECORDER_TIMESLICE_MS).toBeLessThanOrEqual(5000);
    expect(tab.runtime.recorder.getState().mimeType).toBe("audio/webm;codecs=opus");
  });

  it("falls back to the browser's default format when Opus/WebM is not supported", async () => {
    const tab = await recording(openTab({ supportsOpus: false }));
    expect(tab.recorderOptions).toEqual([{}]);
    expect(tab.runtime.recorder.getState().mimeType).toBe("audio/mp4");
  });

  it("reports a refused microphone and holds nothing", async () => {
    const tab = openTab({ denyMicrophone: "NotAllowedError" });
    await tab.runtime.recorder.start(START);
    expect(tab.runtime.recorder.getState()).toMatchObject({ status: "error", error: "permission_denied" });
    await settle();
    expect(tab.locks.held.size).toBe(0);
    expect(tab.runtime.isRecording()).toBe(false);
  });

  it("refuses a visit another tab is recording", async () => {
    const first = await recording();
    const second = openTab({ storage: first.storage, locks: first.locks, server: first.server });
    await second.runtime.recorder.start(START);
    expect(second.runtime.recorder.getState()).toMatchObject({ status: "error", error: "visit_busy" });
    expect(second.streams).toHaveLength(0);
  });
});

describe("chunks", () => {
  it("stores each chunk (encrypted) before the upload queue sees it", async () => {
    const tab = await recording();
    const seenStored: boolean[] = [];
    const add = tab.runtime.queue.add;
    tab.runtime.queue.add = (meta) => {
      seenStored.push(tab.storage.dump("chunks").size > 0);
      add(meta);
    };
    tab.server.offline = true;
    tab.media.emit(audioBytes(0));
    tab.media.emit(audioBytes(1));
    await until(() => tab.runtime.recorder.getState().chunksStored === 2, "two chunks stored");
    expect(seenStored).toEqual([true, true]);
    const chunks = await tab.runtime.store.listChunks(VISIT);
    expect(chunks.map((c) => [c.seq, c.sha256])).toEqual([
      [0, sha256Hex(audioBytes(0))],
      [1, sha256Hex(audioBytes(1))],
    ]);
  });

  it("flushes what was recorded when the tab is hidden", async () => {
    const tab = await recording();
    tab.doc.setVisibility("hidden");
    expect(tab.media.requestDataCalls).toBe(1);
  });
});

describe("time, level, wake lock", () => {
  it("counts elapsed time without pauses", async () => {
    const tab = await recording();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(tab.runtime.recorder.getState().elapsedMs).toBe(10_000);
    tab.runtime.recorder.pause();
    expect(tab.media.state).toBe("paused");
    await vi.advanceTimersByTimeAsync(5_000);
    expect(tab.runtime.recorder.getState()).toMatchObject({ status: "paused", elapsedMs: 10_000 });
    await tab.runtime.recorder.resume();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(tab.runtime.recorder.getState().elapsedMs).toBe(13_000);
  });

  it("samples the input level (RMS 0..1) about ten times a second", async () => {
    const tab = await recording(openTab({ samples: [0.5, -0.5] }));
    const levels: number[] = [];
    tab.runtime.recorder.subscribe(() => levels.push(tab.runtime.recorder.getState().level));
    await vi.advanceTimersByTimeAsync(1000);
    expect(levels.length).toBeGreaterThanOrEqual(9);
    expect(levels.length).toBeLessThanOrEqual(11);
    expect(levels.at(-1)).toBeCloseTo(0.5, 5);
    tab.audio.samples = [0];
    await vi.advanceTimersByTimeAsync(100);
    expect(tab.runtime.recorder.getState().level).toBe(0);
  });

  it("keeps the screen awake, asks again when the tab is visible again, and lets go on Stop", async () => {
    const tab = await recording();
    await settle();
    expect(tab.wake.sentinels).toHaveLength(1);
    expect(tab.runtime.recorder.getState().wakeLock).toBe(true);
    tab.doc.setVisibility("hidden");
    tab.wake.dropAll();
    tab.doc.setVisibility("visible");
    await settle();
    expect(tab.wake.sentinels).toHaveLength(2);
    expect(tab.wake.sentinels[1]?.released).toBe(false);
    await tab.runtime.recorder.stop();
    await settle();
    expect(tab.wake.sentinels.every((s) => s.released)).toBe(true);
    expect(tab.runtime.recorder.getState().wakeLock).toBe(false);
  });
});

describe("microphone loss", () => {
  it("alerts, keeps the audio so far, and resumes as a new segment of the same visit", async () => {
    const tab = await recording();
    tab.media.emit(audioBytes(0));
    tab.media.finalBytes = audioBytes(1);
    await vi.advanceTimersByTimeAsync(4000);
    tab.streams[0]?.track.end();
    await until(() => tab.runtime.recorder.getState().status === "paused", "paused after the loss");
    await until(() => tab.runtime.recorder.getState().chunksStored === 2, "last chunk flushed");
    expect(tab.runtime.recorder.getState()).toMatchObject({ alert: "microphone_lost", elapsedMs: 4000 });
    expect(tab.streams[0]?.track.stopped).toBe(true);

    await tab.runtime.recorder.resume();
    expect(tab.runtime.recorder.getState()).toMatchObject({ status: "recording", alert: null });
    expect(tab.recorders).toHaveLength(2);
    tab.media.emit(audioBytes(2));
    await until(() => tab.runtime.recorder.getState().chunksStored === 3, "third chunk");
    const session = await tab.runtime.store.getSession(VISIT);
    expect(session?.segments.map((s) => s.firstSeq)).toEqual([0, 2]);
    expect(session?.nextSeq).toBe(3);
  });

  it("notices an unplugged device reported only as a device change", async () => {
    const tab = await recording();
    const track = tab.streams[0]?.track;
    if (!track) throw new Error("no track");
    track.readyState = "ended";
    tab.deviceChange.dispatchEvent(new Event("devicechange"));
    await until(() => tab.runtime.recorder.getState().status === "paused", "paused");
    expect(tab.runtime.recorder.getState().alert).toBe("microphone_lost");
  });

  it("warns while the microphone is muted and clears the warning when it comes back", async () => {
    const tab = await recording();
    tab.streams[0]?.track.setMuted(true);
    expect(tab.runtime.recorder.getState()).toMatchObject({ status: "recording", alert: "microphone_muted" });
    tab.streams[0]?.track.setMuted(false);
    expect(tab.runtime.recorder.getState().alert).toBeNull();
  });
});

describe("stop", () => {
  it("sends the recorded stretches between pauses in the manifest", async () => {
    const tab = await recording();
    tab.media.emit(audioBytes(0));
    await vi.advanceTimersByTimeAsync(4000);
    tab.runtime.recorder.pause();
    await vi.advanceTimersByTimeAsync(60_000);
    await tab.runtime.recorder.resume();
    tab.media.emit(audioBytes(1));
    await vi.advanceTimersByTimeAsync(2500);
    tab.media.finalBytes = audioBytes(2);
    await tab.runtime.recorder.stop();
    await until(() => tab.server.finished.has(VISIT), "manifest accepted");
    expect(tab.server.finished.get(VISIT)).toMatchObject({
      chunks: 3,
      duration_ms: 6500,
      segments: [
        { start_ms: 0, end_ms: 4000 },
        { start_ms: 4000, end_ms: 6500 },
      ],
    });
  });

  it("flushes the last chunk, then sends the manifest once every chunk is acknowledged", async () => {
    const tab = await recording();
    tab.media.emit(audioBytes(0));
    await vi.advanceTimersByTimeAsync(3000);
    tab.media.emit(audioBytes(1));
    await vi.advanceTimersByTimeAsync(2000);
    tab.media.finalBytes = audioBytes(2);
    await tab.runtime.recorder.stop();
    expect(tab.runtime.recorder.getState()).toMatchObject({ status: "stopped", elapsedMs: 5000 });
    expect(tab.streams[0]?.track.stopped).toBe(true);
    expect(tab.audio.closed).toBe(1);
    await until(() => tab.server.finished.has(VISIT), "manifest accepted");
    expect(tab.server.storedSeqs(VISIT)).toEqual([0, 1, 2]);
    for (const seq of [0, 1, 2]) expect(tab.server.chunks.get(VISIT)?.get(seq)?.bytes).toEqual(audioBytes(seq));
    expect(tab.server.finished.get(VISIT)).toEqual({
      chunks: 3,
      bytes: 600 + 3,
      duration_ms: 5000,
      mime_type: "audio/webm;codecs=opus",
      segments: [{ start_ms: 0, end_ms: 5000 }],
    });
    expect(tab.storage.dump("chunks").size).toBe(0);
    expect(tab.storage.dump("sessions").size).toBe(0);
    await until(() => tab.locks.held.size === 0, "visit lock released");
  });

  it("stopped offline: the visit waits as offline_transcription with its chunks, and nothing is lost", async () => {
    const tab = await recording();
    tab.server.offline = true;
    tab.media.emit(audioBytes(0));
    tab.media.finalBytes = audioBytes(1);
    await tab.runtime.recorder.stop();
    await settle();
    expect([...tab.storage.dump("sessions").keys()]).toEqual([`offline_transcription_${VISIT}`]);
    expect((await tab.runtime.store.listChunks(VISIT)).map((c) => c.seq)).toEqual([0, 1]);
    expect(tab.runtime.hasUnsentAudio()).toBe(true);
    tab.server.offline = false;
    tab.runtime.queue.handleOnline();
    await until(() => tab.server.finished.has(VISIT), "manifest accepted");
    expect(tab.runtime.hasUnsentAudio()).toBe(false);
  });
});
