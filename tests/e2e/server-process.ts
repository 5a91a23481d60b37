import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface ServerProcess {
  url: string;
  /** Everything the server printed (JSON log lines). */
  output(): string;
  stop(): Promise<void>;
}

/** Starts another production server (the build must exist) with its own data folder; waits for /readyz. */
export async function startServer(port: number, env: Record<string, string>): Promise<ServerProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "murmur-e2e-extra-"));
  let output = "";
  const child: ChildProcess = spawn(process.execPath, ["server.ts"], {
    env: {
      ...process.env,
      PORT: String(port),
      NODE_ENV: "production",
      MURMUR_DATA_DIR: dataDir,
      DATABASE_URL: "",
      LOG_LEVEL: "info",
      // Test-only: lets MURMUR_DEV_MAILBOX=1 work in this production build (app/utils/env.server.ts).
      MURMUR_E2E: "1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // A hook that timed out never calls stop(): do not leave the server running after the worker.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  child.once("exit", () => process.off("exit", killOnExit));
  child.stdout?.on("data", (d) => {
    output += d;
  });
  child.stderr?.on("data", (d) => {
    output += d;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server on ${port} exited: ${output}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server on ${port} did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await new Promise((r) => child.once("exit", r));
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The anon and service-role keys an embedded auth service printed on first start. */
export function generatedKeys(output: string): { anonKey: string; serviceRoleKey: string } {
  for (const line of output.split("\n")) {
    if (!line.includes("auth keys generated")) continue;
    const entry = JSON.parse(line) as { anonKey: string; serviceRoleKey: string };
    return { anonKey: entry.anonKey, serviceRoleKey: entry.serviceRoleKey };
  }
  throw new Error("no generated keys in the server output");
}
