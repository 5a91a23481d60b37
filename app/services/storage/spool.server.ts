import { createHash } from "node:crypto";
import fsp from "node:fs/promises";
import { PRIVATE_FILE_MODE } from "#app/utils/private-files.server.ts";
import type { BlobStore } from "./blob-store.ts";

/** A request body written to scratch space, with what was measured on the way. */
export interface SpooledFile {
  path: string;
  bytes: number;
  sha256: string;
  /** The first bytes, for format sniffing. */
  head: Uint8Array;
  discard(): Promise<void>;
}

export class BodyTooLargeError extends Error {
  readonly limit: number;
  constructor(limit: number) {
    super(`body larger than ${limit} bytes`);
    this.name = "BodyTooLargeError";
    this.limit = limit;
  }
}

const HEAD_BYTES = 64;

/**
 * Streams `body` into a scratch file of `store`, hashing and counting as it goes, never holding
 * more than one network read in memory (each write is awaited, so a slow disk slows the reader).
 * Past `maxBytes` it stops reading and throws BodyTooLargeError. The stream is released, not
 * cancelled: cancelling would destroy the socket before the 413 could be sent.
 */
export async function spoolToScratch(
  store: BlobStore,
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<SpooledFile> {
  const file = await store.scratchFile();
  const hash = createHash("sha256");
  const head = new Uint8Array(HEAD_BYTES);
  let headLength = 0;
  let bytes = 0;
  const handle = await fsp.open(file, "wx", PRIVATE_FILE_MODE);
  try {
    if (body) {
      const reader = body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          bytes += value.byteLength;
          if (bytes > maxBytes) throw new BodyTooLargeError(maxBytes);
          if (headLength < HEAD_BYTES) {
            const take = value.subarray(0, HEAD_BYTES - headLength);
            head.set(take, headLength);
            headLength += take.byteLength;
          }
          hash.update(value);
          await writeAll(handle, value);
        }
      } finally {
        reader.releaseLock();
      }
    }
    await handle.close();
  } catch (error) {
    await handle.close().catch(() => {});
    await fsp.rm(file, { force: true });
    throw error;
  }
  return {
    path: file,
    bytes,
    sha256: hash.digest("hex"),
    head: head.slice(0, headLength),
    discard: () => fsp.rm(file, { force: true }),
  };
}

async function writeAll(handle: fsp.FileHandle, data: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < data.byteLength) {
    const { bytesWritten } = await handle.write(data, offset);
    offset += bytesWritten;
  }
}
