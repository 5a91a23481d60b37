// `npm run backup -- --out <file>` (ADR 0024): one archive of MURMUR_DATA_DIR — the embedded
// database and the audio blobs — consistent as of one instant, taken while the app runs.
//   - Embedded PGlite, server running: the server stages the copy (control-socket.server.ts).
//   - Embedded PGlite, no server: the files are at rest; this process stages them itself.
//   - DATABASE_URL: pg_dump on an exported snapshot, then the data folder's files (blobs, key).

import fs from "node:fs";
import fsp from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { POSTGRES_DUMP, writeArchive } from "./archive.server.ts";
import { controlSocketPath, type SnapshotReply } from "./control-socket.server.ts";
import { BackupError } from "./errors.server.ts";
import { runPgTool } from "./pg-tools.server.ts";
import { newStagingDir, stageDataDir } from "./snapshot.server.ts";

export interface BackupOptions {
  dataDir: string;
  out: string;
  databaseUrl?: string;
  storage: "local" | "s3";
  log?: (line: string) => void;
}

export interface BackupSummary {
  out: string;
  files: number;
  bytes: number;
  mode: "online" | "offline" | "postgres";
  /** Online only: how long the running app's database was held for the copy. */
  heldMs: number | null;
}

/** Asks a running server for a snapshot; null when none listens (no socket, or a dead one's). */
export async function requestServerSnapshot(dataDir: string): Promise<SnapshotReply | null> {
  const socketPath = controlSocketPath(dataDir);
  return new Promise((resolve, reject) => {
    const conn = net.createConnection(socketPath);
    let input = "";
    conn.setEncoding("utf8");
    conn.on("connect", () => conn.write(`${JSON.stringify({ op: "snapshot" })}\n`));
    conn.on("data", (data: string) => {
      input += data;
    });
    conn.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT" || error.code === "ECONNREFUSED") resolve(null);
      else reject(error);
    });
    conn.on("end", () => {
      try {
        const reply = JSON.parse(input) as SnapshotReply | { ok: false; error: string; message?: string };
        if (reply.ok) resolve(reply);
        else
          reject(
            new BackupError("server_refused", `the running server refused the snapshot: ${reply.error} ${reply.message ?? ""}`),
          );
      } catch {
        reject(new BackupError("server_refused", "the running server's answer was not understood"));
      }
    });
  });
}

/**
 * A server PostgreSQL: a repeatable-read transaction exports its snapshot, the data folder's files
 * are staged, then pg_dump reads that same snapshot. A row is committed after its blob is written,
 * so every row in the dump has its blob staged; a blob deleted in the milliseconds between the
 * export and its link is the one gap (docs/operations.md says so and offers PITR instead).
 */
async function stagePostgres(databaseUrl: string, dataDir: string, staging: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("begin isolation level repeatable read read only");
    const { rows } = await client.query<{ id: string }>("select pg_export_snapshot() as id");
    if (fs.existsSync(dataDir)) await stageDataDir(dataDir, staging, { except: ["pglite"] });
    else await fsp.mkdir(staging, { recursive: true, mode: 0o700 });
    await runPgTool("pg_dump", [
      "--format=custom",
      "--no-owner",
      `--snapshot=${rows[0]?.id}`,
      `--file=${path.join(staging, POSTGRES_DUMP)}`,
      `--dbname=${databaseUrl}`,
    ]);
    await client.query("commit");
  } finally {
    await client.end();
  }
}

export async function createBackup(options: BackupOptions): Promise<BackupSummary> {
  const log = options.log ?? (() => {});
  const dataDir = path.resolve(options.dataDir);
  const out = path.resolve(options.out);
  if (fs.existsSync(out)) throw new BackupError("output_exists", `${out} already exists: choose another file name`);
  if (!options.databaseUrl && !fs.existsSync(path.join(dataDir, "pglite"))) {
    throw new BackupError("data_dir_missing", `${dataDir} holds no embedded database (pglite/): check MURMUR_DATA_DIR`);
  }
  let staging = "";
  let mode: BackupSummary["mode"];
  let heldMs: number | null = null;
  try {
    if (options.databaseUrl) {
      mode = "postgres";
      staging = newStagingDir(fs.existsSync(dataDir) ? dataDir : path.dirname(out));
      await stagePostgres(options.databaseUrl, dataDir, staging);
    } else {
      const snapshot = await requestServerSnapshot(dataDir);
      if (snapshot) {
        mode = "online";
        staging = snapshot.staging;
        heldMs = snapshot.heldMs;
        log(`snapshot staged by the running server (database held ${snapshot.heldMs} ms)`);
      } else {
        // Nobody answers on the socket: no server has the database open, its files are at rest.
        mode = "offline";
        staging = newStagingDir(dataDir);
        await stageDataDir(dataDir, staging);
        log("no running server: the data folder was copied at rest");
      }
    }
    const written = await writeArchive(staging, out, {
      created_at: new Date().toISOString(),
      database: options.databaseUrl ? "postgres" : "pglite",
      storage: options.storage,
    });
    return { out, ...written, mode, heldMs };
  } finally {
    if (staging) await fsp.rm(staging, { recursive: true, force: true });
  }
}
