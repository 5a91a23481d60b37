import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BlobNotFoundError, type BlobStore } from "#app/services/storage/blob-store.ts";
import { storageConfig } from "#app/services/storage/config.server.ts";
import { chunkKey, visitPrefix } from "#app/services/storage/keys.ts";
import { createS3BlobStore, S3StorageError } from "#app/services/storage/s3.server.ts";
import { createS3Mock, S3_ENDPOINT } from "#tests/mocks/s3.ts";
import { blobStoreContract, CONTRACT_ORG, CONTRACT_VISIT, readBlob } from "./blob-store-contract.ts";
import { bytesOf, sha256 } from "./harness.ts";

// ADR 8, issue 5 "Storage": S3-compatible storage when S3_* is configured. msw stands in for the
// bucket (we cannot run S3 here), so these tests see the requests a real server would get.
const s3 = createS3Mock({ listPageSize: 2 });
const server = setupServer(s3.handler);
const org = CONTRACT_ORG;
const visit = CONTRACT_VISIT;

const KEYS = { S3_ACCESS_KEY_ID: "AKIDTEST", S3_SECRET_ACCESS_KEY: "secret" };
let scratchRoot: string;

function s3Config(env: Record<string, string>) {
  const config = storageConfig({ MURMUR_DATA_DIR: scratchRoot, S3_ENDPOINT, S3_REGION: "eu-west-3", ...env });
  if (config.kind !== "s3") throw new Error("expected S3 settings");
  return config;
}

beforeAll(async () => {
  scratchRoot = await fsp.mkdtemp(path.join(os.tmpdir(), "murmur-s3-"));
  server.listen({ onUnhandledFrame: "error" });
});
afterAll(async () => {
  server.close();
  await fsp.rm(scratchRoot, { recursive: true, force: true });
});

describe("S3 blob store: the driver contract", () => {
  let store: BlobStore;
  beforeAll(() => {
    store = createS3BlobStore(s3Config({ S3_BUCKET: "murmur-audio", S3_FORCE_PATH_STYLE: "true", ...KEYS }), { retryDelayMs: 1 });
  });
  blobStoreContract(() => store);
});

describe("S3 blob store: requests on the wire", () => {
  beforeEach(() => s3.reset());

  it("signs path-style requests with the configured keys and region, under S3_PREFIX", async () => {
    const store = createS3BlobStore(
      s3Config({
        S3_BUCKET: "murmur-audio",
        S3_FORCE_PATH_STYLE: "true",
        S3_PREFIX: "/clinic-a/",
        ...KEYS,
      }),
      { retryDelayMs: 1 },
    );
    const key = chunkKey(org, visit, 4);
    await store.put(key, bytesOf(2048, 11));
    expect(sha256(s3.objects.get(`murmur-audio/clinic-a/${key}`) ?? new Uint8Array())).toBe(sha256(bytesOf(2048, 11)));
    expect(await store.exists(key)).toBe(true);
    expect((await readBlob(store, key, { start: 10, end: 19 })).equals(Buffer.from(bytesOf(2048, 11).subarray(10, 20)))).toBe(
      true,
    );
    await store.delete(key);

    expect(s3.requests.map((r) => [r.method, r.host, r.bucket, r.key])).toEqual(
      ["PUT", "HEAD", "GET", "DELETE"].map((m) => [m, "s3.murmur.test", "murmur-audio", `clinic-a/${key}`]),
    );
    for (const r of s3.requests) {
      expect(r.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/eu-west-3\/s3\/aws4_request, SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*, Signature=[0-9a-f]{64}$/,
      );
      expect(r.contentSha256).toBeTruthy();
    }
    const [put, , get] = s3.requests;
    expect(put?.contentLength).toBe("2048");
    expect(get?.range).toBe("bytes=10-19");
  });

  it("uses virtual-hosted addresses unless S3_FORCE_PATH_STYLE is true", async () => {
    const store = createS3BlobStore(s3Config({ S3_BUCKET: "murmur-audio", ...KEYS }), { retryDelayMs: 1 });
    await store.put(chunkKey(org, visit, 0), bytesOf(16, 1));
    expect(s3.requests[0]).toMatchObject({ method: "PUT", host: "murmur-audio.s3.murmur.test", key: chunkKey(org, visit, 0) });
  });

  it("streams a file upload with its length, removes the scratch file, and pages through a purge", async () => {
    const store = createS3BlobStore(s3Config({ S3_BUCKET: "murmur-audio", S3_FORCE_PATH_STYLE: "true", ...KEYS }), {
      retryDelayMs: 1,
    });
    const data = bytesOf(300_000, 5);
    const scratch = await store.scratchFile();
    expect(scratch.startsWith(path.join(scratchRoot, "blobs-scratch"))).toBe(true);
    await fsp.writeFile(scratch, data);
    await store.putFile(chunkKey(org, visit, 0), scratch);
    await expect(fsp.stat(scratch)).rejects.toMatchObject({ code: "ENOENT" });
    expect(s3.requests[0]?.contentLength).toBe("300000");
    expect(sha256(await readBlob(store, chunkKey(org, visit, 0)))).toBe(sha256(data));
    for (const seq of [1, 2, 3, 4]) await store.put(chunkKey(org, visit, seq), bytesOf(4, seq));

    s3.requests.length = 0;
    expect(await store.deletePrefix(visitPrefix(org, visit))).toBe(5);
    const lists = s3.requests.filter((r) => r.method === "GET");
    // Five objects, two per page: three listings, each for the visit's prefix with its trailing slash.
    expect(lists).toHaveLength(3);
    for (const l of lists) expect(l.query).toMatchObject({ "list-type": "2", prefix: `${visitPrefix(org, visit)}/` });
    expect(s3.requests.filter((r) => r.method === "DELETE")).toHaveLength(5);
    expect(s3.objects.size).toBe(0);
  });

  it("maps 404 to not found: get throws BlobNotFoundError, exists is false, delete is quiet", async () => {
    const store = createS3BlobStore(s3Config({ S3_BUCKET: "murmur-audio", S3_FORCE_PATH_STYLE: "true", ...KEYS }), {
      retryDelayMs: 1,
    });
    const key = chunkKey(org, visit, 7);
    await expect(store.get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.get(key)).rejects.toMatchObject({ key });
    expect(await store.exists(key)).toBe(false);
    await expect(store.delete(key)).resolves.toBeUndefined();
    // Not found is an answer, not a failure: none of these was retried.
    expect(s3.requests).toHaveLength(4);
  });

  it("retries 5xx and throttling with back-off, resending the whole body", async () => {
    const store = createS3BlobStore(s3Config({ S3_BUCKET: "murmur-audio", S3_FORCE_PATH_STYLE: "true", ...KEYS }), {
      retryDelayMs: 1,
      attempts: 4,
    });
    const data = bytesOf(100_000, 8);
    const scratch = await store.scratchFile();
    await fsp.writeFile(scratch, data);
    s3.fail({ method: "PUT", status: 503, times: 1 });
    s3.fail({ method: "PUT", status: 500, times: 1 });
    await store.putFile(chunkKey(org, visit, 0), scratch);
    expect(s3.requests.filter((r) => r.method === "PUT")).toHaveLength(3);
    expect(sha256(s3.objects.get(`murmur-audio/${chunkKey(org, visit, 0)}`) ?? new Uint8Array())).toBe(sha256(data));

    s3.fail({ method: "GET", status: 429, times: 1 });
    s3.fail({ method: "HEAD", status: 502, times: 2 });
    expect(sha256(await readBlob(store, chunkKey(org, visit, 0)))).toBe(sha256(data));
    expect(await store.exists(chunkKey(org, visit, 0))).toBe(true);
  });

  it("gives up after the last attempt with an error naming the operation, key and status", async () => {
    const store = createS3BlobStore(s3Config({ S3_BUCKET: "murmur-audio", S3_FORCE_PATH_STYLE: "true", ...KEYS }), {
      retryDelayMs: 1,
      attempts: 3,
    });
    s3.fail({ status: 500, times: 10 });
    const key = chunkKey(org, visit, 1);
    const failure = await store.put(key, bytesOf(10, 1)).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(S3StorageError);
    expect(failure).toMatchObject({ operation: "PUT", status: 500 });
    expect(String((failure as Error).message)).toContain(`S3 PUT ${key} failed after 3 attempts: HTTP 500`);
    expect(s3.requests).toHaveLength(3);
    // A 4xx other than 404 is the caller's or the configuration's fault: no retry.
    s3.reset();
    s3.fail({ status: 403, times: 10 });
    await expect(store.exists(key)).rejects.toThrow(/S3 HEAD .* failed after 1 attempt: HTTP 403/);
    expect(s3.requests).toHaveLength(1);
  });
});
