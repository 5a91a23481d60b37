// The running server's side of `npm run backup` on the embedded database (ADR 0024). PGlite lives
// inside this process, so no other process may read its files while it runs; the backup command
// asks this process, over a Unix socket in the data folder, for a frozen copy. Whoever can open
// the socket (mode 0600, the server's user) can read the data folder anyway: no other credential.

import fs from "node:fs";
import fsp from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import type { Database } from "#app/db/database.server.ts";
import type { Logger } from "#app/utils/logger.server.ts";
import { CONTROL_SOCKET, newStagingDir, stageDataDir } from "./snapshot.server.ts";

export interface SnapshotReply {
  ok: true;
  staging: string;
  linked: number;
  copied: number;
  /** How long the app's database was held (every query waited meanwhile). */
  heldMs: number;
}

/**
 * Stages a consistent copy of the data folder while the app runs. On PGlite the pool has exactly
 * one connection (node-postgres bridge): holding it stops every query of the app, pg-boss
 * included, between two statements. A CHECKPOINT first flushes the database's pages, so the copy
 * needs no long WAL replay; the copy itself is what a crash at this instant would leave, which
 * PostgreSQL recovers from. Blobs are linked under the same hold: every row the copy holds had its
 * blob written before its commit (uploads write the blob, then the row).
 */
export async function snapshotRunningPglite(db: Database, dataDir: string): Promise<SnapshotReply> {
  const staging = newStagingDir(dataDir);
  const client = await db.pool.connect();
  const started = performance.now();
  try {
    await client.query("CHECKPOINT");
    const counts = await stageDataDir(dataDir, staging);
    return { ok: true, staging, ...counts, heldMs: Math.round(performance.now() - started) };
  } catch (error) {
    await fsp.rm(staging, { recursive: true, force: true });
    throw error;
  } finally {
    client.release();
  }
}

export function controlSocketPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), CONTROL_SOCKET);
}

/** Listens on MURMUR_DATA_DIR/backup.sock; null (with a warning) when the path cannot be a socket. */
export async function startBackupControl(options: {
  db: Database;
  dataDir: string;
  logger: Logger;
}): Promise<{ close(): Promise<void> } | null> {
  const { db, logger } = options;
  const dataDir = path.resolve(options.dataDir);
  const socketPath = controlSocketPath(dataDir);
  // Unix socket paths are limited to 107 bytes on Linux.
  if (Buffer.byteLength(socketPath) > 107) {
    logger.warn({ socketPath }, "backup socket path too long: online backups of this data folder are unavailable");
    return null;
  }
  // A socket left by a killed process refuses connections; this process owns the folder now.
  await fsp.rm(socketPath, { force: true });
  let busy = false;
  const server = net.createServer((conn) => {
    let input = "";
    conn.setEncoding("utf8");
    conn.on("error", () => {});
    conn.on("data", (data: string) => {
      input += data;
      if (!input.includes("\n")) return;
      const line = input.slice(0, input.indexOf("\n"));
      input = "";
      const reply = (body: unknown) => conn.end(`${JSON.stringify(body)}\n`);
      let request: { op?: unknown };
      try {
        request = JSON.parse(line) as { op?: unknown };
      } catch {
        return reply({ ok: false, error: "bad_request" });
      }
      if (request.op !== "snapshot") return reply({ ok: false, error: "unknown_op" });
      if (busy) return reply({ ok: false, error: "busy" });
      busy = true;
      snapshotRunningPglite(db, dataDir)
        .then((snapshot) => {
          logger.info({ linked: snapshot.linked, copied: snapshot.copied, heldMs: snapshot.heldMs }, "backup snapshot staged");
          reply(snapshot);
        })
        .catch((err: unknown) => {
          logger.error({ err }, "backup snapshot failed");
          reply({ ok: false, error: "snapshot_failed", message: err instanceof Error ? err.message : String(err) });
        })
        .finally(() => {
          busy = false;
        });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => {
      server.off("error", reject);
      resolve();
    });
  });
  fs.chmodSync(socketPath, 0o600);
  server.unref();
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
      }),
  };
}
