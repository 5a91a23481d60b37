// Issue 5: chunks go to IndexedDB first, encrypted with a non-extractable WebCrypto key; session records
// use the SPEC §4 key families. Real AES-GCM and SHA-256 (Node's WebCrypto) on the in-memory storage port.
import { describe, expect, it } from "vitest";
import { chunkKey, RecorderStoreError } from "#app/services/recorder/chunk-store.ts";
import { CHUNK_KEY_NAME } from "#app/services/recorder/constants.ts";
import { createMemoryStorage, type RecorderStorage } from "#app/services/recorder/storage-port.ts";
import type { ChunkRecord, SessionRecord } from "#app/services/recorder/types.ts";
import { audioBytes, makeStore, ORG_A, sha256Hex, subtle, USER, VISIT, VISIT_2 } from "./fakes.ts";

const OPEN = { visitId: VISIT, orgId: ORG_A, userId: USER, mimeType: "audio/webm;codecs=opus" };

function containsSequence(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

describe("encryption at rest", () => {
  it("stores ciphertext, not the audio, and reads the audio back", async () => {
    const storage = createMemoryStorage();
    const store = makeStore(storage);
    await store.openSession(OPEN);
    const audio = audioBytes(0, 4096);
    const meta = await store.appendChunk(VISIT, audio, 3000);

    const record = storage.dump("chunks").get(chunkKey(VISIT, 0)) as ChunkRecord;
    const stored = new Uint8Array(record.bytes);
    expect(stored.byteLength).toBe(audio.byteLength + 16); // AES-GCM tag
    expect(containsSequence(stored, audio.subarray(0, 32))).toBe(false);
    expect(record.iv.byteLength).toBe(12);
    expect(meta).toMatchObject({ seq: 0, size: 4096, sha256: sha256Hex(audio), state: "pending" });

    const read = await store.readChunk(VISIT, 0);
    expect(read?.data).toEqual(audio);
    expect(read?.mimeType).toBe("audio/webm;codecs=opus");
  });

  it("uses a fresh IV for every chunk, so equal audio gives different ciphertext", async () => {
    const storage = createMemoryStorage();
    const store = makeStore(storage);
    await store.openSession(OPEN);
    await store.appendChunk(VISIT, audioBytes(1, 512), 1000);
    await store.appendChunk(VISIT, audioBytes(1, 512), 2000);
    const [a, b] = [0, 1].map((seq) => storage.dump("chunks").get(chunkKey(VISIT, seq)) as ChunkRecord);
    expect(a?.sha256).toBe(b?.sha256);
    expect(Buffer.from(a?.iv ?? []).equals(Buffer.from(b?.iv ?? []))).toBe(false);
    expect(Buffer.from(a?.bytes ?? new ArrayBuffer(0)).equals(Buffer.from(b?.bytes ?? new ArrayBuffer(0)))).toBe(false);
  });

  it("keeps the key as a non-extractable AES-GCM CryptoKey: exporting it is refused", async () => {
    const storage = createMemoryStorage();
    const store = makeStore(storage);
    await store.prepare();
    const key = storage.dump("keys").get(CHUNK_KEY_NAME) as CryptoKey;
    expect(key).toBeInstanceOf(CryptoKey);
    expect(key.extractable).toBe(false);
    expect(key.algorithm).toMatchObject({ name: "AES-GCM", length: 256 });
    await expect(subtle.exportKey("raw", key)).rejects.toThrow();
    await expect(subtle.exportKey("jwk", key)).rejects.toThrow();
  });

  it("creates one key per profile even when two tabs start at once, and both read each other's chunks", async () => {
    const storage = createMemoryStorage();
    const first = makeStore(storage);
    const second = makeStore(storage);
    await Promise.all([first.prepare(), second.prepare()]);
    expect([...storage.dump("keys").keys()]).toEqual([CHUNK_KEY_NAME]);

    await first.openSession(OPEN);
    await first.appendChunk(VISIT, audioBytes(0), 1000);
    await second.openSession({ ...OPEN, visitId: VISIT_2 });
    await second.appendChunk(VISIT_2, audioBytes(5), 1000);
    expect((await second.readChunk(VISIT, 0))?.data).toEqual(audioBytes(0));
    expect((await first.readChunk(VISIT_2, 0))?.data).toEqual(audioBytes(5));
  });

  it("refuses a ciphertext moved to another position (bound to org, visit and seq)", async () => {
    const storage = createMemoryStorage();
    const store = makeStore(storage);
    await store.openSession(OPEN);
    await store.appendChunk(VISIT, audioBytes(0), 1000);
    await store.appendChunk(VISIT, audioBytes(1), 2000);
    const zero = storage.dump("chunks").get(chunkKey(VISIT, 0)) as ChunkRecord;
    await storage.commit([
      { type: "put", store: "chunks", key: chunkKey(VISIT, 1), value: { ...zero, seq: 1, key: chunkKey(VISIT, 1) } },
    ]);
    const failure = await store.readChunk(VISIT, 1).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RecorderStoreError);
    expect((failure as RecorderStoreError).code).toBe("local_chunk_unreadable");
  });
});

describe("session records (SPEC §4 key families)", () => {
  it("keeps a recording under pending_save_ and moves it with its status", async () => {
    const storage = createMemoryStorage();
    const store = makeStore(storage);
    await store.openSession(OPEN);
    expect([...storage.dump("sessions").keys()]).toEqual([`pending_save_${VISIT}`]);

    await store.updateSession(VISIT, { status: "finalized", finalizedAt: Date.now() });
    expect([...storage.dump("sessions").keys()]).toEqual([`finalized_recording_${VISIT}`]);
    await store.updateSession(VISIT, { status: "offline_transcription" });
    expect([...storage.dump("sessions").keys()]).toEqual([`offline_transcription_${VISIT}`]);
    await store.updateSession(VISIT, { status: "failed_save", failure: { code: "visit_closed", at: 1 } });
    expect([...storage.dump("sessions").keys()]).toEqual([`failed_save_${VISIT}`]);
    expect((await store.getSession(VISIT))?.failure?.code).toBe("visit_closed");
  });

  it("counts every chunk in its session in the same write (seq, bytes, duration)", async () => {
    const store = makeStore();
    await store.openSession(OPEN);
    for (let seq = 0; seq < 3; seq++) await store.appendChunk(VISIT, audioBytes(seq), 3000 * (seq + 1));
    const session = (await store.getSession(VISIT)) as SessionRecord;
    expect(session).toMatchObject({ status: "recording", nextSeq: 3, bytes: 200 + 201 + 202, durationMs: 9000 });
    expect(session.segments).toEqual([{ firstSeq: 0, mimeType: "audio/webm;codecs=opus", startMs: 0 }]);
  });

  it("writes neither the chunk nor the counters when the transaction fails", async () => {
    const inner = createMemoryStorage();
    let failCommits = 0;
    const storage: RecorderStorage = {
      ...inner,
      persistent: false,
      commit: (ops) => (failCommits-- > 0 ? Promise.reject(new Error("QuotaExceededError")) : inner.commit(ops)),
    };
    const store = makeStore(storage);
    await store.openSession(OPEN);
    await store.prepare();
    failCommits = 1;
    await expect(store.appendChunk(VISIT, audioBytes(0), 1000)).rejects.toThrow("QuotaExceededError");
    expect(inner.dump("chunks").size).toBe(0);
    expect((await store.getSession(VISIT))?.nextSeq).toBe(0);
    await store.appendChunk(VISIT, audioBytes(0), 1000);
    expect((await store.getSession(VISIT))?.nextSeq).toBe(1);
  });

  it("continues a visit after a reload with a new segment at the next seq", async () => {
    const storage = createMemoryStorage();
    const before = makeStore(storage);
    await before.openSession(OPEN);
    await before.appendChunk(VISIT, audioBytes(0), 3000);
    await before.appendChunk(VISIT, audioBytes(1), 6000);

    const after = makeStore(storage);
    const session = await after.openSession(OPEN);
    expect(session.segments).toEqual([
      { firstSeq: 0, mimeType: OPEN.mimeType, startMs: 0 },
      { firstSeq: 2, mimeType: OPEN.mimeType, startMs: 6000 },
    ]);
    expect((await after.appendChunk(VISIT, audioBytes(2), 9000)).seq).toBe(2);
  });

  it("will not record into a stopped visit", async () => {
    const store = makeStore();
    await store.openSession(OPEN);
    await store.updateSession(VISIT, { status: "finalized", finalizedAt: 1 });
    await expect(store.openSession(OPEN)).rejects.toMatchObject({ code: "session_closed" });
  });
});

describe("deletion", () => {
  it("deletes a chunk only when acknowledged, and only that chunk", async () => {
    const store = makeStore();
    await store.openSession(OPEN);
    for (let seq = 0; seq < 3; seq++) await store.appendChunk(VISIT, audioBytes(seq), 1000);
    expect((await store.listChunks(VISIT)).map((c) => c.seq)).toEqual([0, 1, 2]);
    await store.acknowledge(VISIT, 1);
    expect((await store.listChunks(VISIT)).map((c) => c.seq)).toEqual([0, 2]);
    expect(await store.readChunk(VISIT, 1)).toBeNull();
    expect((await store.getSession(VISIT))?.nextSeq).toBe(3);
  });
});
