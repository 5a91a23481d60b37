import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";

// The production server as deployed (node server.ts, NODE_ENV=production), one or more instances
// sharing a data directory (blobs) and, for two instances, one PostgreSQL — like replicas on a
// shared volume behind a load balancer.

export interface Instance {
  url: string;
  pid: number;
  /** Log lines seen so far that contain `needle` (counted as they stream, never stored whole). */
  count(needle: string): number;
  keysLine(): string | null;
  stop(): Promise<void>;
}

export async function startInstance(
  projectDir: string,
  port: number,
  env: Record<string, string>,
  watch: string[],
  cpuProfDir?: string,
  extraNodeArgs: string[] = [],
): Promise<Instance> {
  // --cpu-prof writes a .cpuprofile when the server exits cleanly (its SIGTERM handler), so a
  // profiled run needs the graceful stop below, not a kill.
  const nodeArgs = [...(cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfDir}`] : []), ...extraNodeArgs];
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, "server.ts"], {
    cwd: projectDir,
    env: { ...process.env, NODE_ENV: "production", LOG_LEVEL: "info", PORT: String(port), HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const counts = new Map<string, number>(watch.map((w) => [w, 0]));
  let keys: string | null = null;
  let partial = "";
  let tail = "";
  const onData = (chunk: Buffer) => {
    const text = partial + chunk.toString("utf8");
    const lines = text.split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      if (!keys && line.includes("auth keys generated")) keys = line;
      for (const w of watch) if (line.includes(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
    }
    tail = (tail + text).slice(-4000);
  };
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);
  const kill = () => child.kill("SIGKILL");
  process.once("exit", kill);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server on ${port} exited:\n${tail}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server on ${port} did not start:\n${tail}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    pid: child.pid ?? 0,
    count: (needle) => counts.get(needle) ?? 0,
    keysLine: () => keys,
    async stop() {
      process.off("exit", kill);
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      await new Promise((r) => child.once("exit", r));
      clearTimeout(timer);
    },
  };
}

/** A plain round-robin HTTP proxy in front of the instances: each request goes to the next one. */
export async function roundRobin(targets: string[]): Promise<{ url: string; stop(): Promise<void> }> {
  let next = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const server = http.createServer((req, res) => {
    const target = new URL(targets[next++ % targets.length] ?? "");
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((r) => {
        agent.destroy();
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** Resident memory of a process in MiB (Linux /proc), or null when it is gone. */
export function rssMiB(pid: number): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : null;
  } catch {
    return null;
  }
}
