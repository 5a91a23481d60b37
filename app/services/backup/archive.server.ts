// A backup archive is a gzipped tar of a staged data folder with MANIFEST.json as its last entry:
// every file's path, size and SHA-256, checked by restore before anything is put in place.

import { createHash } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { TAR_END, tarHeader, tarPadding } from "./tar.server.ts";

export const MANIFEST_PATH = "MANIFEST.json";
export const ARCHIVE_FORMAT = "murmur-backup";
export const ARCHIVE_VERSION = 1;
/** A server PostgreSQL's `pg_dump --format=custom`, in place of the embedded database's files. */
export const POSTGRES_DUMP = "postgres.dump";

export interface ManifestFile {
  path: string;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  format: typeof ARCHIVE_FORMAT;
  version: typeof ARCHIVE_VERSION;
  created_at: string;
  database: "pglite" | "postgres";
  /** "s3": the audio is in a bucket, not in this archive (docs/operations.md: bucket versioning). */
  storage: "local" | "s3";
  /** Every folder, empty ones included (PostgreSQL's data folder needs them). */
  directories: string[];
  files: ManifestFile[];
}

/** Every folder and regular file under `root`, as sorted slash-separated relative paths. */
export async function listTree(root: string): Promise<{ directories: string[]; files: string[] }> {
  const files: string[] = [];
  const directories: string[] = [];
  const walk = async (relative: string) => {
    for (const entry of await fsp.readdir(path.join(root, relative), { withFileTypes: true })) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        directories.push(rel);
        await walk(rel);
      } else if (entry.isFile()) files.push(rel);
    }
  };
  await walk("");
  return { directories: directories.sort(), files: files.sort() };
}

type ArchiveMeta = Omit<Manifest, "files" | "directories" | "format" | "version">;

async function* archiveBlocks(root: string, tree: { directories: string[]; files: string[] }, meta: ArchiveMeta) {
  const { directories, files } = tree;
  for (const dir of directories)
    yield tarHeader({ path: `${dir}/`, size: 0, mode: 0o700, mtime: Date.now() / 1000, directory: true });
  const listed: ManifestFile[] = [];
  for (const rel of files) {
    const full = path.join(root, rel);
    const stat = await fsp.stat(full);
    yield tarHeader({ path: rel, size: stat.size, mode: stat.mode, mtime: stat.mtimeMs / 1000 });
    const hash = createHash("sha256");
    let bytes = 0;
    for await (const chunk of fs.createReadStream(full)) {
      const buf = chunk as Buffer;
      bytes += buf.length;
      hash.update(buf);
      yield buf;
    }
    // The staged copy is private to this backup: a size change means something wrote into it.
    if (bytes !== stat.size) throw new Error(`${rel} changed while it was archived`);
    yield tarPadding(bytes);
    listed.push({ path: rel, bytes, sha256: hash.digest("hex") });
  }
  const manifest: Manifest = { format: ARCHIVE_FORMAT, version: ARCHIVE_VERSION, ...meta, directories, files: listed };
  const body = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  yield tarHeader({ path: MANIFEST_PATH, size: body.length, mode: 0o600, mtime: Date.now() / 1000 });
  yield body;
  yield tarPadding(body.length);
  yield TAR_END;
}

/**
 * Writes `root` as an archive to `out` (mode 0600: it holds patient data and the secret key),
 * through `out.partial` renamed at the end, so a failed backup never leaves a file that looks whole.
 */
export async function writeArchive(root: string, out: string, meta: ArchiveMeta): Promise<{ files: number; bytes: number }> {
  const tree = await listTree(root);
  const partial = `${out}.partial`;
  try {
    await pipeline(
      Readable.from(archiveBlocks(root, tree, meta)),
      zlib.createGzip({ level: 6 }),
      fs.createWriteStream(partial, { mode: 0o600 }),
    );
    const handle = await fsp.open(partial, "r+");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsp.rename(partial, out);
  } catch (error) {
    await fsp.rm(partial, { force: true });
    throw error;
  }
  return { files: tree.files.length, bytes: (await fsp.stat(out)).size };
}
