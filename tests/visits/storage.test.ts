import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BlobStore } from "#app/services/storage/blob-store.ts";
import { StorageConfigError, storageConfig } from "#app/services/storage/config.server.ts";
import { assertBlobKey, audioKey, chunkKey, visitPrefix } from "#app/services/storage/keys.ts";
import { createLocalBlobStore } from "#app/services/storage/local-disk.server.ts";
import { BodyTooLargeError, spoolToScratch } from "#app/services/storage/spool.server.ts";
import { createBlobStore } from "#app/services/storage/storage.server.ts";
import { sniffAudioFormat } from "#app/services/visits/audio-format.ts";
import { blobStoreContract } from "./blob-store-contract.ts";
import { bytesOf, sha256 } from "./harness.ts";

// ADR 8: blobs on local disk under MURMUR_DATA_DIR/blobs, keys namespaced by organisation,
// writes atomic, request bodies spooled to disk with a limit.
describe("blob storage", () => {
  let root: string;
  let store: BlobStore;
  const org = "0b6f5d1e-8a4c-4f3e-9d2a-1c2b3a4d5e6f";
  const visit = "7d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d";

  beforeAll(async () => {
    root = await fsp.mkdtemp(path.join(os.tmpdir(), "murmur-blobs-"));
    store = createLocalBlobStore(root);
  });

  afterAll(async () => {
    await fsp.rm(root, { recursive: true, force: true });
  });

  it("namespaces keys by organisation and visit", () => {
    expect(chunkKey(org, visit, 12)).toBe(`orgs/${org}/visits/${visit}/chunks/12`);
    expect(audioKey(org, visit, "ab".repeat(32))).toBe(`orgs/${org}/visits/${visit}/audio/${"ab".repeat(32)}`);
    expect(chunkKey(org, visit, 0).startsWith(`${visitPrefix(org, visit)}/`)).toBe(true);
  });

  it("refuses keys that could leave their namespace", () => {
    for (const bad of ["", "orgs", "orgs/../x", "orgs//x", "/orgs/x", "orgs/x/", "orgs/./x", "orgs/x\\y", "orgs/.hidden"]) {
      expect(() => assertBlobKey(bad), bad).toThrow(/invalid blob key/);
    }
    expect(() => assertBlobKey(chunkKey(org, visit, 1))).not.toThrow();
  });

  blobStoreContract(() => store);

  it("writes through scratch space it leaves empty, and gives tools the blob's own path", async () => {
    await store.put(chunkKey(org, visit, 5), new Blob([bytesOf(10, 1)]).stream());
    expect(fs.readdirSync(path.join(root, ".scratch"))).toEqual([]);
    expect(store.localPath(chunkKey(org, visit, 5))).toBe(path.join(root, "orgs", org, "visits", visit, "chunks", "5"));
    await store.delete(chunkKey(org, visit, 5));
  });

  it("spools a stream to scratch with its size and SHA-256, and stops past the limit leaving nothing", async () => {
    const data = bytesOf(300_000, 9);
    const spooled = await spoolToScratch(store, new Blob([data]).stream(), 300_000);
    expect({ bytes: spooled.bytes, sha256: spooled.sha256 }).toEqual({ bytes: 300_000, sha256: sha256(data) });
    expect(Buffer.from(spooled.head)).toEqual(Buffer.from(data.subarray(0, 64)));
    expect(sha256(fs.readFileSync(spooled.path))).toBe(sha256(data));
    await spooled.discard();
    await expect(spoolToScratch(store, new Blob([data]).stream(), 299_999)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(fs.readdirSync(path.join(root, ".scratch"))).toEqual([]);
  });

  it("picks local disk under MURMUR_DATA_DIR by default and S3 when S3_BUCKET is set", () => {
    expect(storageConfig({ MURMUR_DATA_DIR: "/srv/murmur" })).toEqual({ kind: "local", root: "/srv/murmur/blobs" });
    const s3 = storageConfig({ MURMUR_DATA_DIR: "/srv/murmur", S3_BUCKET: "audio", S3_ENDPOINT: "http://minio:9000" });
    expect(s3).toEqual({
      kind: "s3",
      bucket: "audio",
      region: "us-east-1",
      endpoint: "http://minio:9000",
      accessKeyId: null,
      secretAccessKey: null,
      forcePathStyle: false,
      prefix: "",
      scratch: "/srv/murmur/blobs-scratch",
    });
    expect(createBlobStore(s3).kind).toBe("s3");
    expect(storageConfig({ S3_BUCKET: "audio", S3_PREFIX: "/murmur/prod/", S3_FORCE_PATH_STYLE: "true" })).toMatchObject({
      prefix: "murmur/prod",
      forcePathStyle: true,
    });
  });

  it("names the S3 variable that is wrong", () => {
    const bad = (env: Record<string, string>) => () => storageConfig({ S3_BUCKET: "audio", ...env });
    expect(bad({ S3_BUCKET: "Audio_Files" })).toThrow(/S3_BUCKET: must be a valid bucket name/);
    expect(bad({ S3_ENDPOINT: "minio:9000" })).toThrow(/S3_ENDPOINT/);
    expect(bad({ S3_FORCE_PATH_STYLE: "yes" })).toThrow(/S3_FORCE_PATH_STYLE: must be true or false/);
    expect(bad({ S3_PREFIX: "a/../b" })).toThrow(/S3_PREFIX/);
    expect(bad({ S3_ACCESS_KEY_ID: "AKIA" })).toThrow(
      /S3_SECRET_ACCESS_KEY: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together/,
    );
    expect(() => storageConfig({ S3_BUCKET: "audio", S3_ACCESS_KEY_ID: "a", S3_SECRET_ACCESS_KEY: "b" })).not.toThrow();
    expect(bad({ S3_ENDPOINT: "minio:9000" })).toThrow(StorageConfigError);
  });
});

describe("audio format sniffing", () => {
  const head = (...parts: (string | number[])[]) =>
    Uint8Array.from(parts.flatMap((p) => (typeof p === "string" ? [...Buffer.from(p, "latin1")] : p)));

  it("recognises the formats issue 5 accepts and nothing else", () => {
    expect(sniffAudioFormat(head([0x1a, 0x45, 0xdf, 0xa3], "webm"))).toBe("webm");
    expect(sniffAudioFormat(head("OggS", [0, 2]))).toBe("ogg");
    expect(sniffAudioFormat(head("RIFF", [0, 0, 0, 0], "WAVEfmt "))).toBe("wav");
    expect(sniffAudioFormat(head("ID3", [4, 0]))).toBe("mp3");
    expect(sniffAudioFormat(head([0xff, 0xfb, 0x90, 0x64]))).toBe("mp3");
    expect(sniffAudioFormat(head([0, 0, 0, 0x20], "ftypM4A "))).toBe("m4a");
    expect(sniffAudioFormat(head("fLaC"))).toBe("flac");
    expect(sniffAudioFormat(head("RIFF", [0, 0, 0, 0], "AVI "))).toBeNull();
    expect(sniffAudioFormat(head("<!doctype html>"))).toBeNull();
    expect(sniffAudioFormat(head("%PDF-1.7"))).toBeNull();
    expect(sniffAudioFormat(new Uint8Array(0))).toBeNull();
  });
});
