// `npm run restore -- --in <file>` (ADR 0024): unpacks a backup into an empty MURMUR_DATA_DIR. The
// archive is unpacked beside the target first and every file checked against the manifest; only a
// whole, verified copy is renamed into place, so a damaged archive leaves nothing behind.

import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import fsp, { type FileHandle } from "node:fs/promises";
import path from "node:path";
import zlib from "node:zlib";
import pg from "pg";
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  MANIFEST_PATH,
  type Manifest,
  type ManifestFile,
  POSTGRES_DUMP,
} from "./archive.server.ts";
import { BackupError } from "./errors.server.ts";
import { runPgTool } from "./pg-tools.server.ts";
import { extractTar, type TarSink } from "./tar.server.ts";

export interface RestoreOptions {
  archive: string;
  dataDir: string;
  databaseUrl?: string;
  log?: (line: string) => void;
}

export interface RestoreSummary {
  dataDir: string;
  files: number;
  database: Manifest["database"];
  storage: Manifest["storage"];
  createdAt: string;
}

/** A relative path that stays inside the target: no absolute path, no `..`, no empty segment. */
function safeRelative(p: string): string {
  const parts = p.split("/");
  if (path.isAbsolute(p) || p.includes("\\") || parts.some((s) => s === "" || s === "." || s === "..")) {
    throw new BackupError("unsafe_path", `the archive holds a path outside the data folder: ${p}`);
  }
  return p;
}

async function assertEmptyTarget(dataDir: string): Promise<void> {
  try {
    const entries = await fsp.readdir(dataDir);
    if (entries.length > 0) {
      throw new BackupError("target_not_empty", `${dataDir} is not empty: restore only into an empty or new data folder`);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    if ((error as NodeJS.ErrnoException).code === "ENOTDIR") {
      throw new BackupError("target_not_empty", `${dataDir} is a file, not a data folder`);
    }
    throw error;
  }
}

function parseManifest(body: Buffer | null): Manifest {
  if (!body)
    throw new BackupError("manifest_missing", "the archive has no MANIFEST.json: it is incomplete or not a Murmur backup");
  let manifest: Manifest;
  try {
    manifest = JSON.parse(body.toString("utf8")) as Manifest;
  } catch {
    throw new BackupError("archive_damaged", "the archive's MANIFEST.json is not valid JSON");
  }
  if (
    manifest?.format !== ARCHIVE_FORMAT ||
    manifest.version !== ARCHIVE_VERSION ||
    !Array.isArray(manifest.files) ||
    !Array.isArray(manifest.directories)
  ) {
    throw new BackupError("archive_damaged", "MANIFEST.json is not a Murmur backup manifest of a known version");
  }
  return manifest;
}

/** Every file against the manifest: the same set, sizes and SHA-256; every folder present. */
function verify(manifest: Manifest, found: Map<string, ManifestFile>, folders: Set<string>): void {
  for (const dir of manifest.directories) {
    if (!folders.has(dir))
      throw new BackupError("file_missing", `the folder ${dir} is listed in the manifest but not in the archive`);
  }
  for (const expected of manifest.files) {
    const got = found.get(expected.path);
    if (!got) throw new BackupError("file_missing", `${expected.path} is listed in the manifest but not in the archive`);
    if (got.bytes !== expected.bytes || got.sha256 !== expected.sha256) {
      throw new BackupError("checksum_mismatch", `${expected.path} does not match its checksum: the archive is damaged`);
    }
  }
  const listed = new Set(manifest.files.map((f) => f.path));
  for (const p of found.keys()) {
    if (!listed.has(p)) throw new BackupError("unexpected_file", `${p} is in the archive but not in its manifest`);
  }
}

async function unpack(archive: string, into: string): Promise<{ manifest: Manifest; found: Map<string, ManifestFile> }> {
  const found = new Map<string, ManifestFile>();
  const folders = new Set<string>();
  let manifestBody: Buffer | null = null;
  const source = fs.createReadStream(archive);
  const gunzip = source.pipe(zlib.createGunzip());
  // The file being written when a damaged archive stops the extraction: its sink never ends, so
  // its handle is closed here (it was left to the garbage collector, which Node warns about).
  let writing: FileHandle | null = null;
  try {
    await extractTar(
      gunzip,
      async (file): Promise<TarSink> => {
        if (file.path === MANIFEST_PATH) {
          const parts: Buffer[] = [];
          return {
            write: async (chunk) => {
              parts.push(Buffer.from(chunk));
            },
            end: async () => {
              manifestBody = Buffer.concat(parts);
            },
          };
        }
        const rel = safeRelative(file.path);
        if (found.has(rel)) throw new BackupError("unexpected_file", `${rel} appears twice in the archive`);
        const target = path.join(into, ...rel.split("/"));
        await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
        const handle = await fsp.open(target, "w", file.mode & 0o777 || 0o600);
        writing = handle;
        const hash = createHash("sha256");
        let bytes = 0;
        return {
          write: async (chunk) => {
            hash.update(chunk);
            bytes += chunk.length;
            await handle.write(chunk);
          },
          end: async () => {
            writing = null;
            await handle.close();
            found.set(rel, { path: rel, bytes, sha256: hash.digest("hex") });
          },
        };
      },
      async (dir) => {
        const rel = safeRelative(dir);
        await fsp.mkdir(path.join(into, ...rel.split("/")), { recursive: true, mode: 0o700 });
        folders.add(rel);
      },
    );
  } catch (error) {
    if (error instanceof BackupError) throw error;
    // zlib's own checks (CRC, length, a truncated stream) land here.
    throw new BackupError("archive_damaged", `the archive cannot be read: ${(error as Error).message}`);
  } finally {
    await (writing as FileHandle | null)?.close().catch(() => {});
    source.destroy();
    gunzip.destroy();
  }
  const manifest = parseManifest(manifestBody);
  verify(manifest, found, folders);
  return { manifest, found };
}

async function restorePostgres(databaseUrl: string | undefined, dump: string): Promise<void> {
  if (!databaseUrl) {
    throw new BackupError(
      "database_url_missing",
      "this backup holds a server PostgreSQL dump: set DATABASE_URL to the (empty) database to restore it into",
    );
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')",
    );
    if ((rows[0]?.n ?? 0) > 0) {
      throw new BackupError(
        "database_not_empty",
        "the database DATABASE_URL names already has tables: restore only into an empty database",
      );
    }
  } finally {
    await client.end();
  }
  await runPgTool("pg_restore", ["--no-owner", "--exit-on-error", `--dbname=${databaseUrl}`, dump]);
}

export async function restoreBackup(options: RestoreOptions): Promise<RestoreSummary> {
  const log = options.log ?? (() => {});
  const dataDir = path.resolve(options.dataDir);
  await assertEmptyTarget(dataDir);
  const parent = path.dirname(dataDir);
  await fsp.mkdir(parent, { recursive: true });
  const temp = path.join(parent, `.restore-${path.basename(dataDir)}-${randomUUID()}`);
  await fsp.mkdir(temp, { mode: 0o700 });
  try {
    const { manifest, found } = await unpack(options.archive, temp);
    log(`${found.size} files verified against the manifest`);
    if (manifest.database === "postgres") {
      await restorePostgres(options.databaseUrl, path.join(temp, POSTGRES_DUMP));
      await fsp.rm(path.join(temp, POSTGRES_DUMP));
      log("PostgreSQL dump restored with pg_restore");
    }
    // Checked again: something may have written into the target while the archive was unpacked.
    await assertEmptyTarget(dataDir);
    await fsp.rmdir(dataDir).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
    });
    await fsp.rename(temp, dataDir);
    return { dataDir, files: found.size, database: manifest.database, storage: manifest.storage, createdAt: manifest.created_at };
  } catch (error) {
    await fsp.rm(temp, { recursive: true, force: true });
    throw error;
  }
}
