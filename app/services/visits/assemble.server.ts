import { createHash } from "node:crypto";
import fsp from "node:fs/promises";
import type { BlobStore } from "#app/services/storage/blob-store.ts";
import type { SpooledFile } from "#app/services/storage/spool.server.ts";

export interface StoredChunk {
  seq: number;
  sha256: string;
  bytes: number;
  storage_key: string;
}

export class ChunkCorruptError extends Error {
  readonly seq: number;
  constructor(seq: number) {
    super(`stored chunk ${seq} does not match its acknowledged SHA-256`);
    this.name = "ChunkCorruptError";
    this.seq = seq;
  }
}

const HEAD_BYTES = 64;

/**
 * Concatenates the chunks in `seq` order into one scratch file, streaming (MediaRecorder's WebM
 * slices, like pieces of any file cut at byte boundaries, join back into the original by plain
 * concatenation). Each chunk is re-hashed on the way, so storage damage is caught here rather
 * than by the engine. A visit recorded in several MediaRecorder runs (a reload, a lost microphone)
 * holds several WebM streams back to back, each starting with its own EBML header; ffmpeg decodes
 * such a file from end to end (tests/visits/assemble-streams.test.ts), so the plain concatenation
 * stays the visit's audio and its SHA-256 is one the client can recompute from what it sent.
 */
export async function assembleChunks(store: BlobStore, chunks: readonly StoredChunk[]): Promise<SpooledFile> {
  const file = await store.scratchFile();
  const whole = createHash("sha256");
  const head = new Uint8Array(HEAD_BYTES);
  let headLength = 0;
  let bytes = 0;
  const out = await fsp.open(file, "wx");
  try {
    for (const chunk of [...chunks].sort((a, b) => a.seq - b.seq)) {
      const part = createHash("sha256");
      for await (const data of await store.get(chunk.storage_key)) {
        const buffer = data as Buffer;
        part.update(buffer);
        whole.update(buffer);
        if (headLength < HEAD_BYTES) {
          const take = buffer.subarray(0, HEAD_BYTES - headLength);
          head.set(take, headLength);
          headLength += take.byteLength;
        }
        let offset = 0;
        while (offset < buffer.byteLength) offset += (await out.write(buffer, offset)).bytesWritten;
        bytes += buffer.byteLength;
      }
      if (part.digest("hex") !== chunk.sha256) throw new ChunkCorruptError(chunk.seq);
    }
    await out.close();
  } catch (error) {
    await out.close().catch(() => {});
    await fsp.rm(file, { force: true });
    throw error;
  }
  return {
    path: file,
    bytes,
    sha256: whole.digest("hex"),
    head: head.slice(0, headLength),
    discard: () => fsp.rm(file, { force: true }),
  };
}
