import { randomUUID } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { type BlobBody, BlobNotFoundError, type BlobRange, type BlobStore } from "./blob-store.ts";
import type { StorageConfig } from "./config.server.ts";
import { assertBlobKey } from "./keys.ts";

type S3Config = Extract<StorageConfig, { kind: "s3" }>;

export interface S3StoreOptions {
  /** Attempts per request, counting the first (5xx, 429, throttling and network errors are retried). */
  attempts?: number;
  /** First back-off delay; it doubles on each retry, with jitter. */
  retryDelayMs?: number;
  /** Deletes running at once when a visit's prefix is removed. */
  deleteConcurrency?: number;
}

/** A request the bucket kept refusing (or that failed outright), with what it was and why. */
export class S3StorageError extends Error {
  readonly operation: string;
  readonly status: number | null;
  constructor(operation: string, key: string, attempts: number, cause: unknown) {
    const status = statusOf(cause);
    super(
      `S3 ${operation} ${key} failed after ${attempts} attempt${attempts === 1 ? "" : "s"}: ${status ? `HTTP ${status} ` : ""}${(cause as Error)?.name ?? "Error"}: ${(cause as Error)?.message ?? String(cause)}`,
      { cause },
    );
    this.name = "S3StorageError";
    this.operation = operation;
    this.status = status;
  }
}

const statusOf = (error: unknown): number | null =>
  (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode ?? null;

const isNotFound = (error: unknown) => statusOf(error) === 404 || ["NoSuchKey", "NotFound"].includes((error as Error)?.name);

const NETWORK_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "ETIMEDOUT", "EPIPE", "EAI_AGAIN", "ENOTFOUND", "ECONNABORTED"]);

function isRetryable(error: unknown): boolean {
  const status = statusOf(error);
  if (status !== null) return status >= 500 || status === 429 || status === 408;
  // No HTTP answer: a cut or refused connection may heal; missing credentials will not.
  const e = error as { code?: string; name?: string };
  return NETWORK_CODES.has(e?.code ?? "") || e?.name === "TimeoutError";
}

// The SDK warns on the console when a streamed request fails; the retry loop reports failures itself.
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * Blobs in an S3-compatible bucket (AWS, MinIO, Garage, R2…), ADR 8. A PUT replaces an object
 * whole, so readers never see a torn blob, as on local disk. The SDK's own retries are off: a
 * retried PUT must resend its body from the start, which only this module can do (it reopens the
 * file), so every request goes through one retry loop with back-off. Checksums are sent only when
 * S3 requires them, because several S3-compatible servers reject the SDK's default trailers.
 */
export function createS3BlobStore(config: S3Config, options: S3StoreOptions = {}): BlobStore {
  const attempts = options.attempts ?? 4;
  const retryDelayMs = options.retryDelayMs ?? 200;
  const deleteConcurrency = options.deleteConcurrency ?? 8;
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint ?? undefined,
    forcePathStyle: config.forcePathStyle,
    credentials:
      config.accessKeyId && config.secretAccessKey
        ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
        : undefined,
    maxAttempts: 1,
    logger: quiet,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const objectKey = (key: string) => {
    assertBlobKey(key);
    return config.prefix ? `${config.prefix}/${key}` : key;
  };

  async function retrying<T>(operation: string, key: string, run: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await run();
      } catch (error) {
        if (isNotFound(error)) throw new BlobNotFoundError(key);
        if (attempt >= attempts || !isRetryable(error)) throw new S3StorageError(operation, key, attempt, error);
        const delay = retryDelayMs * 2 ** (attempt - 1);
        await new Promise((resolve) => setTimeout(resolve, delay / 2 + Math.random() * (delay / 2)));
      }
    }
  }

  async function scratchFile(): Promise<string> {
    await fsp.mkdir(config.scratch, { recursive: true });
    return path.join(config.scratch, randomUUID());
  }

  async function putFile(key: string, filePath: string): Promise<void> {
    const Key = objectKey(key);
    const { size } = await fsp.stat(filePath);
    await retrying("PUT", key, () =>
      client.send(
        new PutObjectCommand({
          Bucket: config.bucket,
          Key,
          Body: size === 0 ? new Uint8Array(0) : fs.createReadStream(filePath),
          ContentLength: size,
        }),
      ),
    );
    await fsp.rm(filePath, { force: true });
  }

  async function deleteOne(key: string, Key: string): Promise<void> {
    try {
      await retrying("DELETE", key, () => client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key })));
    } catch (error) {
      if (!(error instanceof BlobNotFoundError)) throw error;
    }
  }

  return {
    kind: "s3",
    async put(key, body) {
      objectKey(key);
      if (body instanceof Uint8Array) {
        await retrying("PUT", key, () =>
          client.send(
            new PutObjectCommand({ Bucket: config.bucket, Key: objectKey(key), Body: body, ContentLength: body.byteLength }),
          ),
        );
        return;
      }
      // A stream can be sent once only and S3 wants its length up front: spool it to scratch first.
      const file = await scratchFile();
      try {
        await pipeline(toReadable(body), fs.createWriteStream(file, { flags: "wx" }));
        await putFile(key, file);
      } finally {
        await fsp.rm(file, { force: true });
      }
    },
    putFile,
    async get(key, range?: BlobRange) {
      const Key = objectKey(key);
      const answer = await retrying("GET", key, () =>
        client.send(
          new GetObjectCommand({
            Bucket: config.bucket,
            Key,
            Range: range ? `bytes=${range.start}-${range.end}` : undefined,
          }),
        ),
      );
      if (!answer.Body) throw new BlobNotFoundError(key);
      return answer.Body as Readable;
    },
    async exists(key) {
      const Key = objectKey(key);
      try {
        await retrying("HEAD", key, () => client.send(new HeadObjectCommand({ Bucket: config.bucket, Key })));
        return true;
      } catch (error) {
        if (error instanceof BlobNotFoundError) return false;
        throw error;
      }
    },
    async delete(key) {
      await deleteOne(key, objectKey(key));
    },
    async deletePrefix(prefix) {
      // The trailing slash keeps visit "ab" from matching visit "abc".
      const listPrefix = `${objectKey(prefix)}/`;
      let count = 0;
      let token: string | undefined;
      do {
        const page = await retrying("LIST", prefix, () =>
          client.send(new ListObjectsV2Command({ Bucket: config.bucket, Prefix: listPrefix, ContinuationToken: token })),
        );
        const keys = (page.Contents ?? []).map((o) => o.Key).filter((k): k is string => Boolean(k));
        for (let i = 0; i < keys.length; i += deleteConcurrency) {
          await Promise.all(keys.slice(i, i + deleteConcurrency).map((k) => deleteOne(prefix, k)));
        }
        count += keys.length;
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return count;
    },
    localPath: () => null,
    scratchFile,
  };
}

function toReadable(body: Exclude<BlobBody, Uint8Array>): Readable {
  return body instanceof ReadableStream ? Readable.fromWeb(body as import("node:stream/web").ReadableStream<Uint8Array>) : body;
}
