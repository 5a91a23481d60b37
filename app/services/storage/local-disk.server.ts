import { randomUUID } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, privateDir } from "#app/utils/private-files.server.ts";
import { type BlobBody, BlobNotFoundError, type BlobStore } from "./blob-store.ts";
import { assertBlobKey } from "./keys.ts";

const SCRATCH = ".scratch";

/**
 * Blobs as files under `root` (default `${MURMUR_DATA_DIR}/blobs`). Every write goes to a scratch
 * file in the same file system, is fsynced, then renamed over the target: atomic on POSIX, so a
 * crash leaves the old blob or the new one, never a torn file.
 */
export function createLocalBlobStore(root: string): BlobStore {
  const scratchDir = path.join(root, SCRATCH);
  // Audio written before issue 25 may be 0644: a 0700 folder keeps it from other users all the same.
  privateDir(root);
  const fileOf = (key: string) => {
    assertBlobKey(key);
    return path.join(root, ...key.split("/"));
  };

  async function scratchFile(): Promise<string> {
    await fsp.mkdir(scratchDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    return path.join(scratchDir, randomUUID());
  }

  async function moveInto(target: string, source: string): Promise<void> {
    await fsp.mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
    // Spooled uploads arrive with the spool's mode: audio is the server user's only (issue 25).
    await fsp.chmod(source, PRIVATE_FILE_MODE);
    await fsp.rename(source, target);
  }

  return {
    kind: "local",
    async put(key, body) {
      const target = fileOf(key);
      const temp = await scratchFile();
      try {
        await writeDurably(temp, body);
        await moveInto(target, temp);
      } catch (error) {
        await fsp.rm(temp, { force: true });
        throw error;
      }
    },
    async putFile(key, filePath) {
      const target = fileOf(key);
      const handle = await fsp.open(filePath, "r+");
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await moveInto(target, filePath);
    },
    async get(key, range) {
      const file = fileOf(key);
      try {
        const handle = await fsp.open(file, "r");
        return range ? handle.createReadStream({ start: range.start, end: range.end }) : handle.createReadStream();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new BlobNotFoundError(key);
        throw error;
      }
    },
    async exists(key) {
      try {
        return (await fsp.stat(fileOf(key))).isFile();
      } catch {
        return false;
      }
    },
    async delete(key) {
      await fsp.rm(fileOf(key), { force: true });
    },
    async deletePrefix(prefix) {
      const dir = fileOf(prefix);
      const count = await countFiles(dir);
      await fsp.rm(dir, { recursive: true, force: true });
      return count;
    },
    localPath: (key) => fileOf(key),
    scratchFile,
  };
}

async function writeDurably(file: string, body: BlobBody): Promise<void> {
  const out = fs.createWriteStream(file, { flags: "wx", mode: PRIVATE_FILE_MODE });
  const source =
    body instanceof Uint8Array
      ? Readable.from([body])
      : body instanceof ReadableStream
        ? Readable.fromWeb(body as import("node:stream/web").ReadableStream<Uint8Array>)
        : body;
  await pipeline(source, out);
  const handle = await fsp.open(file, "r+");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function countFiles(dir: string): Promise<number> {
  try {
    const entries = await fsp.readdir(dir, { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).length;
  } catch {
    return 0;
  }
}
