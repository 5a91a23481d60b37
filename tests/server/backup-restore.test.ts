import { execFileSync } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "#app/db/database.server.ts";
import { createBackup } from "#app/services/backup/backup.server.ts";
import { startBackupControl } from "#app/services/backup/control-socket.server.ts";
import { BackupError } from "#app/services/backup/errors.server.ts";
import { restoreBackup } from "#app/services/backup/restore.server.ts";
import { TAR_END, tarHeader, tarPadding } from "#app/services/backup/tar.server.ts";
import { createLogger } from "#app/utils/logger.server.ts";

// Backup and restore of an embedded data folder, in process: an embedded PGlite on disk with rows
// and blob files, archived at rest and while a writer keeps inserting, then restored into an empty
// folder and opened again. Damaged archives are refused with a code and leave nothing behind.
// The full server under load is tests/server/backup-under-load.test.ts.

let root = "";
const dir = (name: string) => path.join(root, name);

async function seedDataDir(dataDir: string, rows: number): Promise<void> {
  const db = await openDatabase({ dataDir });
  try {
    await db.pool.query("create table if not exists ledger (n int primary key, body text not null)");
    for (let n = 0; n < rows; n += 1) await db.pool.query("insert into ledger values ($1, $2)", [n, `row ${n}`]);
  } finally {
    await db.close();
  }
  const blob = path.join(dataDir, "blobs", "orgs", "o1", "visits", "v1", "chunks");
  await fsp.mkdir(blob, { recursive: true });
  for (let seq = 0; seq < 3; seq += 1) await fsp.writeFile(path.join(blob, String(seq)), Buffer.alloc(10_000 + seq, seq + 1));
  await fsp.mkdir(path.join(dataDir, "blobs", ".scratch"), { recursive: true });
  await fsp.writeFile(path.join(dataDir, "blobs", ".scratch", "half-written"), "x");
  await fsp.writeFile(path.join(dataDir, "secret.key"), "k".repeat(64), { mode: 0o600 });
}

async function ledger(dataDir: string): Promise<number[]> {
  const db = await openDatabase({ dataDir });
  try {
    const { rows } = await db.pool.query<{ n: number }>("select n from ledger order by n");
    return rows.map((r) => r.n);
  } finally {
    await db.close();
  }
}

/** Where the content of the archive's first file of over 100 bytes starts (ustar: size at 124, octal). */
function firstFileContentOffset(tar: Buffer): number {
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const size = Number.parseInt(
      tar
        .subarray(offset + 124, offset + 136)
        .toString("latin1")
        .replace(/\0.*$/, "")
        .trim() || "0",
      8,
    );
    if (size > 100) return offset + 512;
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  throw new Error("no file of over 100 bytes in the archive");
}

/** The archive's tar, gunzipped, for tests that damage it on purpose. */
const tarOf = (archive: string) => zlib.gunzipSync(fs.readFileSync(archive));

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BackupError) return error.code;
    throw error;
  }
  return "accepted";
}

let archive = "";

beforeAll(async () => {
  root = await fsp.mkdtemp(path.join(os.tmpdir(), "murmur-backup-"));
  await seedDataDir(dir("data"), 20);
  archive = dir("at-rest.tar.gz");
  const summary = await createBackup({ dataDir: dir("data"), out: archive, storage: "local" });
  expect(summary.mode).toBe("offline");
  // initdb of an embedded database takes from 5 s to a minute on a busy machine: one, copied.
}, 240_000);

afterAll(async () => {
  if (root) await fsp.rm(root, { recursive: true, force: true });
});

describe("backup and restore of an embedded data folder", () => {
  it("restores rows, blobs and the key into an empty folder; scratch files stay out; tar can read it", async () => {
    const listing = execFileSync("tar", ["tzf", archive], { encoding: "utf8" }).split("\n");
    expect(listing).toContain("MANIFEST.json");
    expect(listing).toContain("blobs/orgs/o1/visits/v1/chunks/2");
    expect(listing.some((p) => p.includes(".scratch"))).toBe(false);
    expect(fs.statSync(archive).mode & 0o777).toBe(0o600);

    const target = dir("restored");
    const restored = await restoreBackup({ archive, dataDir: target });
    expect(restored.database).toBe("pglite");
    expect(await ledger(target)).toEqual(Array.from({ length: 20 }, (_, n) => n));
    for (let seq = 0; seq < 3; seq += 1) {
      expect(fs.readFileSync(path.join(target, "blobs/orgs/o1/visits/v1/chunks", String(seq)))).toEqual(
        Buffer.alloc(10_000 + seq, seq + 1),
      );
    }
    expect(fs.readFileSync(path.join(target, "secret.key"), "utf8")).toBe("k".repeat(64));
    // No leftovers beside the target.
    expect(fs.readdirSync(root).filter((n) => n.startsWith(".restore-"))).toEqual([]);
  }, 120_000);

  it("a running database: the server's socket stages a copy while a writer keeps inserting", async () => {
    const dataDir = dir("live");
    await fsp.cp(dir("data"), dataDir, { recursive: true });
    const db: Database = await openDatabase({ dataDir });
    await db.pool.query("delete from ledger where n > 0");
    const control = await startBackupControl({ db, dataDir, logger: createLogger("silent") });
    let next = 1;
    let writing = true;
    const acknowledged: number[] = [0];
    // PGlite runs in this thread and answers through promises only: an insert loop with nothing
    // else awaited is one endless chain of microtasks, so no timer, socket or file callback ever
    // runs — this test used to hang here, before the backup began, with the writer filling the
    // disk (hundreds of MB of WAL). A server's writes arrive as socket events, one request at a
    // time; the writer yields to the event loop between inserts the same way.
    const writer = (async () => {
      while (writing) {
        await db.pool.query("insert into ledger values ($1, $2)", [next, `row ${next}`]);
        acknowledged.push(next);
        next += 1;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    try {
      while (acknowledged.length < 30) await new Promise((r) => setTimeout(r, 10));
      const ackedBefore = [...acknowledged];
      const summary = await createBackup({ dataDir, out: dir("live.tar.gz"), storage: "local" });
      expect(summary.mode).toBe("online");
      writing = false;
      await writer;
      const target = dir("live-restored");
      await restoreBackup({ archive: dir("live.tar.gz"), dataDir: target });
      const rows = await ledger(target);
      // Every insert acknowledged before the backup began is there, and the rows have no gap.
      expect(rows.slice(0, ackedBefore.length)).toEqual(ackedBefore);
      expect(rows).toEqual(Array.from({ length: rows.length }, (_, n) => n));
      expect(rows.length).toBeLessThanOrEqual(acknowledged.length);
      // The staging copy is gone from the live folder.
      expect(fs.readdirSync(dataDir).filter((n) => n.startsWith(".backup-staging-"))).toEqual([]);
    } finally {
      writing = false;
      await writer;
      await control?.close();
      await db.close();
    }
  }, 120_000);

  it("refuses a target that is not empty", async () => {
    const target = dir("occupied");
    await fsp.mkdir(target);
    await fsp.writeFile(path.join(target, "keep-me"), "mine");
    expect(await refusal(restoreBackup({ archive, dataDir: target }))).toBe("target_not_empty");
    expect(fs.readdirSync(target)).toEqual(["keep-me"]);
  });

  it("refuses an archive whose file bytes no longer match the manifest, and leaves no folder", async () => {
    const tar = tarOf(archive);
    // One byte inside the first file's content (after its 512-byte header). The archive starts
    // with its folders' headers (size 0), so the first entry is not a file: flipping a byte at a
    // fixed offset hit a header and tested the header checksum instead of the manifest's.
    const at = firstFileContentOffset(tar);
    tar[at + 100] = (tar[at + 100] ?? 0) ^ 0xff;
    const damaged = dir("flipped.tar.gz");
    fs.writeFileSync(damaged, zlib.gzipSync(tar));
    const target = dir("from-flipped");
    expect(await refusal(restoreBackup({ archive: damaged, dataDir: target }))).toBe("checksum_mismatch");
    expect(fs.existsSync(target)).toBe(false);
    expect(fs.readdirSync(root).filter((n) => n.startsWith(".restore-"))).toEqual([]);
  });

  it("refuses a truncated archive, a damaged gzip stream and an archive without its manifest", async () => {
    const bytes = fs.readFileSync(archive);
    fs.writeFileSync(dir("truncated.tar.gz"), bytes.subarray(0, Math.floor(bytes.length / 2)));
    expect(await refusal(restoreBackup({ archive: dir("truncated.tar.gz"), dataDir: dir("t1") }))).toBe("archive_damaged");

    const flipped = Buffer.from(bytes);
    flipped[Math.floor(bytes.length / 2)] = (flipped[Math.floor(bytes.length / 2)] ?? 0) ^ 0xff;
    fs.writeFileSync(dir("gzip-flipped.tar.gz"), flipped);
    expect(await refusal(restoreBackup({ archive: dir("gzip-flipped.tar.gz"), dataDir: dir("t2") }))).toBe("archive_damaged");

    const body = Buffer.from("hello");
    const noManifest = Buffer.concat([
      tarHeader({ path: "secret.key", size: body.length, mode: 0o600, mtime: 0 }),
      body,
      tarPadding(body.length),
      TAR_END,
    ]);
    fs.writeFileSync(dir("no-manifest.tar.gz"), zlib.gzipSync(noManifest));
    expect(await refusal(restoreBackup({ archive: dir("no-manifest.tar.gz"), dataDir: dir("t3") }))).toBe("manifest_missing");
    for (const t of ["t1", "t2", "t3"]) expect(fs.existsSync(dir(t))).toBe(false);
  });

  it("refuses an entry that would land outside the data folder", async () => {
    const body = Buffer.from("pwned");
    const evil = Buffer.concat([
      tarHeader({ path: "../escaped", size: body.length, mode: 0o600, mtime: 0 }),
      body,
      tarPadding(body.length),
      TAR_END,
    ]);
    fs.writeFileSync(dir("evil.tar.gz"), zlib.gzipSync(evil));
    expect(await refusal(restoreBackup({ archive: dir("evil.tar.gz"), dataDir: dir("t4") }))).toBe("unsafe_path");
    expect(fs.existsSync(path.join(root, "escaped"))).toBe(false);
  });

  it("never overwrites an existing archive", async () => {
    expect(await refusal(createBackup({ dataDir: dir("data"), out: archive, storage: "local" }))).toBe("output_exists");
  });
});
