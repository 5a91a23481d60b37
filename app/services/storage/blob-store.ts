import type { Readable } from "node:stream";

export type BlobBody = Uint8Array | Readable | ReadableStream<Uint8Array>;

/** Bytes `start` to `end` of a blob, both inclusive (as in an HTTP Range header). */
export interface BlobRange {
  start: number;
  end: number;
}

/**
 * Where audio lives (ADR 8). Keys come from keys.ts. Writes are atomic: a reader sees the whole
 * old blob or the whole new one, never a part.
 */
export interface BlobStore {
  readonly kind: "local" | "s3";
  put(key: string, body: BlobBody): Promise<void>;
  /** Moves a finished scratch file (from `scratchFile`) into the store; the file is gone afterwards. */
  putFile(key: string, filePath: string): Promise<void>;
  /**
   * Throws BlobNotFoundError when the key holds nothing. With `range`, only those bytes (fewer when
   * the blob ends sooner), so playback can seek without reading the whole recording.
   */
  get(key: string, range?: BlobRange): Promise<Readable>;
  exists(key: string): Promise<boolean>;
  /** Deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Deletes every blob under `prefix/`; returns how many. */
  deletePrefix(prefix: string): Promise<number>;
  /** A path on local disk holding the blob, for tools that need a file (ffmpeg), or null. */
  localPath(key: string): string | null;
  /** A fresh path in the store's scratch space (same file system as the blobs when local). */
  scratchFile(): Promise<string>;
}

export class BlobNotFoundError extends Error {
  readonly key: string;
  constructor(key: string) {
    super(`blob not found: ${key}`);
    this.name = "BlobNotFoundError";
    this.key = key;
  }
}
