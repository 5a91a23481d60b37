import { type CryptoDeps, decryptChunk, encryptChunk, getOrCreateChunkKey, sha256Hex } from "./chunk-crypto.ts";
import { SESSION_KEY_FAMILY } from "./constants.ts";
import type { RecorderStorage, StorageOp } from "./storage-port.ts";
import type { ChunkMeta, ChunkRecord, FailureInfo, SessionRecord, SessionStatus } from "./types.ts";

export interface ChunkStoreDeps extends CryptoDeps {
  storage: RecorderStorage;
  now(): number;
}

export interface OpenSessionInput {
  visitId: string;
  orgId: string;
  userId: string | null;
  mimeType: string;
}

/** A local problem with a stored chunk or session, with a stable code for the UI. */
export class RecorderStoreError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "RecorderStoreError";
    this.code = code;
  }
}

const FAMILIES = [...new Set(Object.values(SESSION_KEY_FAMILY))];

export function sessionKey(status: SessionStatus, visitId: string): string {
  return `${SESSION_KEY_FAMILY[status]}${visitId}`;
}

export function chunkKey(visitId: string, seq: number): string {
  return `${visitId}:${String(seq).padStart(10, "0")}`;
}

function metaOf(record: ChunkRecord): ChunkMeta {
  return {
    visitId: record.visitId,
    orgId: record.orgId,
    seq: record.seq,
    size: record.size,
    sha256: record.sha256,
    state: record.state,
  };
}

/**
 * The browser's store of recorded audio (issue 5): chunks encrypted with the profile's AES-GCM key, and
 * one session record per visit under its SPEC §4 key family. A chunk and its session's counters are
 * written in one transaction, so a crash never leaves a chunk the session does not count. Chunks are
 * deleted only by acknowledge(), which the upload queue calls after the server's acknowledgement.
 */
export function createChunkStore(deps: ChunkStoreDeps) {
  const { storage } = deps;
  let keyPromise: Promise<CryptoKey> | null = null;
  const chunkKeyOnce = () => {
    keyPromise ??= getOrCreateChunkKey(storage, deps.subtle).catch((error: unknown) => {
      keyPromise = null;
      throw error;
    });
    return keyPromise;
  };
  // Read-modify-write of a session must not interleave within this tab; other tabs are kept out by the visit lock.
  let tail: Promise<unknown> = Promise.resolve();
  function serial<T>(task: () => Promise<T>): Promise<T> {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  }

  async function findSession(visitId: string): Promise<SessionRecord | null> {
    const found = await Promise.all(FAMILIES.map((family) => storage.get("sessions", `${family}${visitId}`)));
    return (found.find((value) => value !== undefined) as SessionRecord | undefined) ?? null;
  }

  /** Writes `next`, moving the record to its status's family when the status changed. */
  function sessionOps(previous: SessionRecord | null, next: SessionRecord): StorageOp[] {
    const ops: StorageOp[] = [];
    if (previous && previous.key !== next.key) ops.push({ type: "delete", store: "sessions", key: previous.key });
    ops.push({ type: "put", store: "sessions", key: next.key, value: next });
    return ops;
  }

  async function readRecord(visitId: string, seq: number): Promise<ChunkRecord | null> {
    return ((await storage.get("chunks", chunkKey(visitId, seq))) as ChunkRecord | undefined) ?? null;
  }

  return {
    get persistent(): boolean {
      return storage.persistent;
    },

    /** Creates the key up front, so the first chunk is not delayed by key generation. */
    prepare: async (): Promise<void> => {
      await chunkKeyOnce();
    },

    /**
     * Starts (or continues, after a reload or a lost microphone) the recording of a visit: a new segment
     * begins at the next sequence number. A visit already stopped cannot be recorded into again.
     */
    openSession: (input: OpenSessionInput): Promise<SessionRecord> =>
      serial(async () => {
        const previous = await findSession(input.visitId);
        if (previous && previous.status !== "recording" && previous.status !== "pending_save") {
          throw new RecorderStoreError("session_closed", `visit ${input.visitId} is ${previous.status}`);
        }
        if (previous && previous.orgId !== input.orgId) {
          throw new RecorderStoreError("session_other_org", `visit ${input.visitId} belongs to another organisation`);
        }
        const now = deps.now();
        const base: SessionRecord = previous ?? {
          key: "",
          visitId: input.visitId,
          orgId: input.orgId,
          userId: input.userId,
          status: "recording",
          nextSeq: 0,
          startedAt: now,
          updatedAt: now,
          durationMs: 0,
          bytes: 0,
          segments: [],
          finalizedAt: null,
          failure: null,
        };
        const next: SessionRecord = {
          ...base,
          key: sessionKey("recording", input.visitId),
          status: "recording",
          updatedAt: now,
          segments: [...base.segments, { firstSeq: base.nextSeq, mimeType: input.mimeType, startMs: base.durationMs }],
        };
        await storage.commit(sessionOps(previous, next));
        return next;
      }),

    /** Encrypts and stores the next chunk of a recording visit; returns what the upload queue needs. */
    appendChunk: (visitId: string, data: Uint8Array<ArrayBuffer>, durationMs: number): Promise<ChunkMeta> =>
      serial(async () => {
        const found = await findSession(visitId);
        // pending_save here means another tab, without Web Locks to tell, took this live recording for an
        // interrupted one; the audio still belongs to this recording, so it is stored and the status restored.
        if (!found || (found.status !== "recording" && found.status !== "pending_save")) {
          throw new RecorderStoreError("session_not_recording", `visit ${visitId} is not recording`);
        }
        const session: SessionRecord = { ...found, status: "recording", key: sessionKey("recording", visitId) };
        const key = await chunkKeyOnce();
        const seq = session.nextSeq;
        const sha256 = await sha256Hex(deps.subtle, data);
        const sealed = await encryptChunk(deps, key, { orgId: session.orgId, visitId, seq }, data);
        const segment = session.segments.at(-1);
        const now = deps.now();
        const record: ChunkRecord = {
          key: chunkKey(visitId, seq),
          visitId,
          orgId: session.orgId,
          seq,
          bytes: sealed.bytes,
          iv: sealed.iv,
          sha256,
          size: data.byteLength,
          mimeType: segment?.mimeType ?? "",
          createdAt: now,
          state: "pending",
        };
        const next: SessionRecord = {
          ...session,
          nextSeq: seq + 1,
          bytes: session.bytes + data.byteLength,
          durationMs: Math.max(session.durationMs, durationMs),
          updatedAt: now,
        };
        await storage.commit([{ type: "put", store: "chunks", key: record.key, value: record }, ...sessionOps(found, next)]);
        return metaOf(record);
      }),

    /** The chunk's audio, decrypted and checked against its SHA-256; null once it was acknowledged. */
    async readChunk(
      visitId: string,
      seq: number,
    ): Promise<{ meta: ChunkMeta; data: Uint8Array<ArrayBuffer>; mimeType: string } | null> {
      const record = await readRecord(visitId, seq);
      if (!record) return null;
      let data: Uint8Array<ArrayBuffer>;
      try {
        data = await decryptChunk(deps.subtle, await chunkKeyOnce(), record);
      } catch {
        throw new RecorderStoreError("local_chunk_unreadable", `chunk ${seq} of visit ${visitId} cannot be decrypted`);
      }
      if ((await sha256Hex(deps.subtle, data)) !== record.sha256) {
        throw new RecorderStoreError("local_chunk_unreadable", `chunk ${seq} of visit ${visitId} does not match its checksum`);
      }
      return { meta: metaOf(record), data, mimeType: record.mimeType };
    },

    /** Every stored chunk of a visit, in seq order (ciphertext left out). */
    async listChunks(visitId: string): Promise<ChunkMeta[]> {
      const records = (await storage.getAll("chunks", `${visitId}:`)) as ChunkRecord[];
      return records.map(metaOf);
    },

    /** Visits that still have chunks on this browser (any organisation). */
    async chunkVisitIds(): Promise<string[]> {
      const keys = await storage.keys("chunks", "");
      return [...new Set(keys.map((key) => key.slice(0, key.lastIndexOf(":"))))];
    },

    /** The server acknowledged the chunk: only now may the local copy go. */
    acknowledge: (visitId: string, seq: number): Promise<void> =>
      serial(() => storage.commit([{ type: "delete", store: "chunks", key: chunkKey(visitId, seq) }])),

    /** The server holds different bytes for this seq: keep ours, set aside from uploading. */
    markConflict: (visitId: string, seq: number): Promise<void> =>
      serial(async () => {
        const record = await readRecord(visitId, seq);
        if (!record) return;
        await storage.commit([{ type: "put", store: "chunks", key: record.key, value: { ...record, state: "conflict" } }]);
      }),

    getSession: (visitId: string): Promise<SessionRecord | null> => findSession(visitId),

    async listSessions(): Promise<SessionRecord[]> {
      return (await storage.getAll("sessions", "")) as SessionRecord[];
    },

    updateSession: (
      visitId: string,
      patch: {
        status?: SessionStatus;
        durationMs?: number;
        failure?: FailureInfo | null;
        finalizedAt?: number | null;
        /** A pause at this recorded time (ms). */
        breakAtMs?: number;
      },
    ): Promise<SessionRecord | null> =>
      serial(async () => {
        const previous = await findSession(visitId);
        if (!previous) return null;
        const status = patch.status ?? previous.status;
        const { breakAtMs, ...rest } = patch;
        const breaks = previous.breaksMs ?? [];
        const next: SessionRecord = {
          ...previous,
          ...rest,
          ...(breakAtMs !== undefined && !breaks.includes(breakAtMs) ? { breaksMs: [...breaks, breakAtMs] } : {}),
          status,
          key: sessionKey(status, visitId),
          durationMs: Math.max(previous.durationMs, patch.durationMs ?? 0),
          updatedAt: deps.now(),
        };
        await storage.commit(sessionOps(previous, next));
        return next;
      }),

    /**
     * A page died between writing chunks and its session (or an older version left bare chunks): the
     * chunks are adopted into an interrupted session so they are uploaded and counted.
     */
    adoptChunks: (visitId: string, userId: string | null): Promise<SessionRecord | null> =>
      serial(async () => {
        if (await findSession(visitId)) return null;
        const records = (await storage.getAll("chunks", `${visitId}:`)) as ChunkRecord[];
        const first = records[0];
        const last = records.at(-1);
        if (!first || !last) return null;
        const session: SessionRecord = {
          key: sessionKey("pending_save", visitId),
          visitId,
          orgId: first.orgId,
          userId,
          status: "pending_save",
          nextSeq: last.seq + 1,
          startedAt: first.createdAt,
          updatedAt: deps.now(),
          durationMs: 0,
          bytes: records.reduce((sum, record) => sum + record.size, 0),
          segments: [{ firstSeq: first.seq, mimeType: first.mimeType }],
          finalizedAt: null,
          failure: null,
        };
        await storage.commit(sessionOps(null, session));
        return session;
      }),

    /** After the server accepted the manifest. Chunks still stored (a conflict kept aside) stay. */
    deleteSession: (visitId: string): Promise<void> =>
      serial(async () => {
        const previous = await findSession(visitId);
        if (previous) await storage.commit([{ type: "delete", store: "sessions", key: previous.key }]);
      }),
  };
}

export type ChunkStore = ReturnType<typeof createChunkStore>;
