import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

// A production server (server.ts over the build: `npx react-router build` first) in a child
// process whose stdout and stderr are pipes to this process, as a test harness or a log shipper
// holds them: the tests here stop reading them, or close them, and see what the server does.

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const built = fs.existsSync(path.join(ROOT, "build/server/index.js"));

export interface ServerChild {
  child: ChildProcess;
  url: string;
  /** Everything read from stdout and stderr so far. */
  output(): string;
  /** Parsed JSON log lines read so far. */
  lines(): Record<string, unknown>[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Stops reading stdout and stderr: once the pipes fill up, every write of the server's meets a full pipe. */
  stopReading(): void;
  resumeReading(): void;
  /** Closes this end of stdout and stderr: the server's next writes fail with EPIPE. */
  closeOutput(): void;
  /**
   * SIGTERM (`twice`: a second one once the server logged that it is shutting down), then waits for
   * the exit (SIGKILL after `giveUpMs`); how long it took and how it ended.
   */
  terminate(options?: {
    giveUpMs?: number;
    twice?: boolean;
  }): Promise<{ ms: number; code: number | null; signal: NodeJS.Signals | null }>;
}

/** A port nobody listens on now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

export async function startServerChild(options: {
  dataDir: string;
  port: number;
  env?: Record<string, string>;
  /** How long to wait for /readyz; tests that start several servers on a busy CI machine raise it. */
  readyTimeoutMs?: number;
}): Promise<ServerChild> {
  const url = `http://127.0.0.1:${options.port}`;
  const child = spawn(process.execPath, ["server.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(options.port),
      HOST: "127.0.0.1",
      NODE_ENV: "production",
      MURMUR_DATA_DIR: options.dataDir,
      DATABASE_URL: "",
      SITE_URL: url,
      LOG_LEVEL: "info",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // A test that timed out never terminates its server: do not leave it running after the worker.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => {
      process.off("exit", killOnExit);
      resolve({ code, signal });
    }),
  );
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString("utf8");
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);

  // Generous: the first start of a data folder runs initdb and every migration.
  const deadline = Date.now() + (options.readyTimeoutMs ?? 120_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not start: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  return {
    child,
    url,
    output: () => output,
    lines: () =>
      output
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as Record<string, unknown>];
          } catch {
            return [];
          }
        }),
    exited,
    stopReading() {
      child.stdout?.pause();
      child.stderr?.pause();
    },
    resumeReading() {
      child.stdout?.resume();
      child.stderr?.resume();
    },
    closeOutput() {
      child.stdout?.destroy();
      child.stderr?.destroy();
    },
    async terminate({ giveUpMs = 30_000, twice = false } = {}) {
      const started = Date.now();
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        if (twice) {
          await until("the server to start shutting down", () => output.includes('"msg":"shutting down"'), 10_000);
          child.kill("SIGTERM");
        }
      }
      const timer = setTimeout(() => child.kill("SIGKILL"), giveUpMs);
      const result = await exited;
      clearTimeout(timer);
      return { ms: Date.now() - started, ...result };
    },
  };
}

/** Ended by the stop it was asked for: SIGTERM's own outcome or a zero exit, not the SIGKILL of terminate()'s give-up. */
export function stoppedOnRequest(stop: { code: number | null; signal: NodeJS.Signals | null }): boolean {
  return stop.signal === "SIGTERM" || stop.code === 0;
}

/**
 * The embedded database's state as PostgreSQL's pg_control records it: "shut down" after a clean
 * close, "in production" when the process ended with the database open (killed mid-way).
 */
export function pgliteState(dataDir: string): string {
  const control = fs.readFileSync(path.join(dataDir, "pglite", "global", "pg_control"));
  // ControlFileData: system_identifier (8 bytes), pg_control_version (4), catalog_version_no (4), state (4).
  const state = control.readUInt32LE(16);
  return { 1: "shut down", 2: "shutting down", 6: "in production" }[state] ?? `state ${state}`;
}

/** Polls `check` until it holds (or throws after `timeoutMs`): no test here relies on timing luck. */
export async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
