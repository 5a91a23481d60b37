import fs from "node:fs";
import fsp from "node:fs/promises";
import { expect, it } from "vitest";
import { BlobNotFoundError, type BlobStore } from "#app/services/storage/blob-store.ts";
import { chunkKey, visitPrefix } from "#app/services/storage/keys.ts";
import { bytesOf, sha256 } from "./harness.ts";

export const CONTRACT_ORG = "0b6f5d1e-8a4c-4f3e-9d2a-1c2b3a4d5e6f";
export const CONTRACT_VISIT = "7d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d";

export async function readBlob(store: BlobStore, key: string, range?: { start: number; end: number }): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of await store.get(key, range)) parts.push(Buffer.from(part as Uint8Array));
  return Buffer.concat(parts);
}

/**
 * What every BlobStore driver must do (ADR 8), run against local disk (storage.test.ts) and S3
 * (storage-s3.test.ts). `store()` is read lazily because drivers are built in beforeAll.
 */
export function blobStoreContract(store: () => BlobStore): void {
  const org = CONTRACT_ORG;
  const visit = CONTRACT_VISIT;

  it("puts, reads, replaces whole, checks and deletes blobs", async () => {
    const key = chunkKey(org, visit, 0);
    expect(await store().exists(key)).toBe(false);
    await expect(store().get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    await store().put(key, bytesOf(1000, 1));
    expect(sha256(await readBlob(store(), key))).toBe(sha256(bytesOf(1000, 1)));
    await store().put(key, new Blob([bytesOf(5, 2)]).stream());
    expect(sha256(await readBlob(store(), key))).toBe(sha256(bytesOf(5, 2)));
    expect(await store().exists(key)).toBe(true);
    await store().delete(key);
    await store().delete(key);
    expect(await store().exists(key)).toBe(false);
  });

  it("reads a byte range, cut short at the end of the blob", async () => {
    const key = chunkKey(org, visit, 3);
    const data = bytesOf(70_000, 6);
    await store().put(key, data);
    expect(sha256(await readBlob(store(), key, { start: 100, end: 60_099 }))).toBe(sha256(data.subarray(100, 60_100)));
    expect(sha256(await readBlob(store(), key, { start: 69_990, end: 80_000 }))).toBe(sha256(data.subarray(69_990)));
    await store().delete(key);
  });

  it("moves a finished scratch file into place, and deletes a visit's whole prefix", async () => {
    const scratch = await store().scratchFile();
    await fsp.writeFile(scratch, bytesOf(64, 3));
    await store().putFile(chunkKey(org, visit, 1), scratch);
    await store().put(chunkKey(org, visit, 2), bytesOf(8, 4));
    expect(fs.existsSync(scratch)).toBe(false);
    expect(sha256(await readBlob(store(), chunkKey(org, visit, 1)))).toBe(sha256(bytesOf(64, 3)));
    const otherVisit = "11111111-2222-4333-8444-555555555555";
    // A visit id that starts with this one's must survive the purge of this one.
    const longerVisit = `${visit}0`;
    await store().put(chunkKey(org, otherVisit, 0), bytesOf(8, 5));
    await store().put(chunkKey(org, longerVisit, 0), bytesOf(8, 7));
    expect(await store().deletePrefix(visitPrefix(org, visit))).toBe(2);
    expect(await store().exists(chunkKey(org, visit, 1))).toBe(false);
    expect(await store().exists(chunkKey(org, otherVisit, 0))).toBe(true);
    expect(await store().exists(chunkKey(org, longerVisit, 0))).toBe(true);
    expect(await store().deletePrefix(visitPrefix(org, visit))).toBe(0);
    await store().deletePrefix(visitPrefix(org, otherVisit));
    await store().deletePrefix(visitPrefix(org, longerVisit));
  });

  it("stores an empty blob", async () => {
    const key = chunkKey(org, visit, 9);
    const scratch = await store().scratchFile();
    await fsp.writeFile(scratch, new Uint8Array(0));
    await store().putFile(key, scratch);
    expect(await store().exists(key)).toBe(true);
    expect((await readBlob(store(), key)).byteLength).toBe(0);
    await store().delete(key);
  });

  it("refuses keys that could leave their namespace", async () => {
    await expect(store().put("orgs/../etc", bytesOf(1, 1))).rejects.toThrow(/invalid blob key/);
    await expect(store().get("orgs//x")).rejects.toThrow(/invalid blob key/);
  });
}
