import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { built, freePort, pgliteState, type ServerChild, startServerChild, stoppedOnRequest } from "./server-child.ts";

// A log reader that goes away (a closed terminal, a restarted log shipper, a parent that exits
// or stops reading) must never stop the server from answering or from shutting down. It did:
// on SIGTERM, pino's exit-time synchronous flush spun in Atomics.wait on the full stdout pipe and
// the process never ended (ADR 10). A real production server in a child process with piped stdio.

const SHUTDOWN_TIMEOUT_MS = 5000;
// Generous: the bound is the configured deadline plus room for a loaded machine, not a benchmark.
const EXIT_BOUND_MS = SHUTDOWN_TIMEOUT_MS + 10_000;

/**
 * Requests that each log a ~700-byte warn line and cost the server almost nothing: a missing file
 * under /assets is a 404 from the static middleware, on a kept-alive connection.
 */
async function flood(url: string, bytes: number): Promise<{ answered: number; statuses: Set<number> }> {
  const path = `/assets/${"a".repeat(600)}.js`;
  const total = Math.ceil(bytes / 700);
  const statuses = new Set<number>();
  let next = 0;
  let answered = 0;
  const worker = async () => {
    while (next < total) {
      next += 1;
      const res = await fetch(`${url}${path}`, { signal: AbortSignal.timeout(10_000) });
      await res.arrayBuffer();
      statuses.add(res.status);
      answered += 1;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return { answered, statuses };
}

/** More log output than a stdout pipe holds here (the kernel's socket buffer, twice over, and the reader's own). */
function moreThanThePipeHolds(): number {
  let socketBuffer = 212_992;
  try {
    socketBuffer = Number(fs.readFileSync("/proc/sys/net/core/wmem_default", "utf8").trim()) || socketBuffer;
  } catch {
    // not Linux: the default above is generous for others
  }
  return 2 * socketBuffer + 256 * 1024;
}

async function healthy(url: string): Promise<boolean> {
  const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(10_000) });
  return res.ok;
}

describe.skipIf(!built)("a log reader that goes away", () => {
  let dataDir = "";
  const servers: ServerChild[] = [];
  const start = async () => {
    const server = await startServerChild({
      dataDir,
      port: await freePort(),
      env: { SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) },
    });
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), "murmur-log-reader-"));
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.terminate({ giveUpMs: 5000 })));
    if (dataDir) await fsp.rm(dataDir, { recursive: true, force: true });
  }, 30_000);

  it("a reader that stops reading: once the pipe is full the server still answers, and it stops on SIGTERM in time", async () => {
    const server = await start();
    const { url } = server;
    server.stopReading();
    // The old synchronous logger froze here, once the pipe was full (every request timed out).
    // What the server cannot write is dropped and counted (tests/unit/log-sink.test.ts).
    const flooded = await flood(url, moreThanThePipeHolds());
    expect(flooded.statuses).toEqual(new Set([404]));
    expect(await healthy(url)).toBe(true);
    const stop = await server.terminate();
    expect(stoppedOnRequest(stop)).toBe(true);
    expect(stop.ms).toBeLessThan(EXIT_BOUND_MS);
    // Closed, not cut off: the embedded database recorded a clean shutdown.
    expect(pgliteState(dataDir)).toBe("shut down");
    console.info(`stalled reader: ${flooded.answered} requests answered, exit ${stop.ms} ms after SIGTERM`);
  }, 240_000);

  it("a reader that closes its end (EPIPE): the server keeps answering and stops on SIGTERM in time", async () => {
    const server = await start();
    const { url } = server;
    server.closeOutput();
    const flooded = await flood(url, 100_000);
    expect(flooded.statuses).toEqual(new Set([404]));
    expect(await healthy(url)).toBe(true);
    // A page render logs too, and goes through the whole app.
    expect((await fetch(`${url}/`, { signal: AbortSignal.timeout(10_000) })).status).toBe(200);
    const stop = await server.terminate();
    expect(stoppedOnRequest(stop)).toBe(true);
    expect(stop.ms).toBeLessThan(EXIT_BOUND_MS);
    expect(pgliteState(dataDir)).toBe("shut down");
    console.info(`closed reader: exit ${stop.ms} ms after SIGTERM`);
  }, 240_000);
});
