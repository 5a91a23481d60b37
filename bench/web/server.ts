import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const HOST = "127.0.0.1";
const READY_TIMEOUT_MS = 60_000;
// server.ts itself allows 10 s for in-flight requests on SIGTERM; give it a little more.
const STOP_TIMEOUT_MS = 12_000;
const LOG_TAIL_BYTES = 16_384;

export type RunningServer = {
  baseUrl: string;
  /** SIGTERM, then SIGKILL if the server has not exited after `graceMs`. */
  stop: (graceMs?: number) => Promise<void>;
};

/** Asks the OS for a port that is free right now (a tiny race with other processes is acceptable). */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error("could not find a free port"))));
    });
  });
}

/** Runs `npx react-router build` in the project, streaming its output. */
export function buildApp(projectDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["react-router", "build"], { cwd: projectDir, stdio: "inherit" });
    child.on("error", reject);
    child.on("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`react-router build failed (${signal ?? `exit code ${code}`})`)),
    );
  });
}

export type StartOptions = {
  /** Extra environment for the server, e.g. TRUST_PROXY for a benchmark that varies X-Forwarded-For. */
  env?: Record<string, string>;
  /** Sees everything the server writes to stdout and stderr, e.g. to read a line from its log. */
  onOutput?: (text: string) => void;
};

/**
 * Starts the production server exactly as deployed (node server.ts, NODE_ENV=production) against an
 * empty data directory, so earlier runs or a developer's ./data cannot change the numbers.
 */
export async function startServer(projectDir: string, options: StartOptions = {}): Promise<RunningServer> {
  const port = await findFreePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "murmur-bench-"));
  const child = spawn(process.execPath, ["server.ts"], {
    cwd: projectDir,
    env: {
      ...process.env,
      ...options.env,
      PORT: String(port),
      // Loopback only: a benchmark has no reason to be reachable from the network.
      HOST,
      NODE_ENV: "production",
      MURMUR_DATA_DIR: dataDir,
      DATABASE_URL: "",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });

  // The server's output would interleave with the report, so keep only a tail to show on failure.
  let logTail = "";
  const keep = (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    logTail = (logTail + text).slice(-LOG_TAIL_BYTES);
    options.onOutput?.(text);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);

  const cleanUp = () => fs.rmSync(dataDir, { recursive: true, force: true });
  // Last resort if this process exits without running stop(): never leave a server behind.
  const killOnExit = () => {
    if (isRunning(child)) child.kill("SIGKILL");
    cleanUp();
  };
  // Ctrl-C may come at any point from here on, even before the server is ready. Load may still be
  // running, and a graceful shutdown would wait out the server's whole grace period: cut it short.
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: stopping the server…`);
    void stop(1_000).finally(() => process.exit(130));
  };
  process.once("exit", killOnExit);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  let stopped = false;
  const stop = async (graceMs = STOP_TIMEOUT_MS) => {
    if (stopped) return;
    stopped = true;
    await terminate(child, graceMs);
    process.off("exit", killOnExit);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    cleanUp();
  };

  const baseUrl = `http://${HOST}:${port}`;
  try {
    await waitUntilReady(baseUrl, child);
  } catch (error) {
    await stop();
    const tail = logTail.trim();
    throw new Error(`${(error as Error).message}${tail ? `\n--- server output (tail) ---\n${tail}` : ""}`);
  }
  return { baseUrl, stop };
}

async function waitUntilReady(baseUrl: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (!isRunning(child)) {
      throw new Error(`server exited before it was ready (${child.signalCode ?? `exit code ${child.exitCode}`})`);
    }
    try {
      const res = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
      await res.body?.cancel();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`server not ready: GET /readyz did not return 200 within ${READY_TIMEOUT_MS / 1000} s`);
}

async function terminate(child: ChildProcess, graceMs: number): Promise<void> {
  if (!isRunning(child)) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}
