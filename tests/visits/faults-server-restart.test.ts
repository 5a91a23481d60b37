import { type ChildProcess, spawn } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generatedKeys } from "#tests/e2e/server-process.ts";
import { webmChunks } from "./harness.ts";

// Issue 5 "Fault tests": the server is killed (kill -9) in the middle of a chunked upload and
// started again on the same data folder (embedded PostgreSQL and blobs); the client resends what
// was not acknowledged and finishes → the assembled audio is exactly the recording. A real
// production server (the build must exist: `npx react-router build`) over HTTP.

const ROOT = path.resolve(import.meta.dirname, "../..");
const built = fs.existsSync(path.join(ROOT, "build/server/index.js"));
// This suite's port range (4900–4999); the process id spreads parallel runs over it.
const PORT = 4900 + (process.pid % 100);
const SITE = `http://127.0.0.1:${PORT}`;
const PASSWORD = "Restart-Fault-2026!";

interface Server {
  child: ChildProcess;
  output(): string;
  exited: Promise<void>;
}

async function startServer(dataDir: string): Promise<Server> {
  let output = "";
  const child = spawn(process.execPath, ["server.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      NODE_ENV: "production",
      MURMUR_DATA_DIR: dataDir,
      DATABASE_URL: "",
      SITE_URL: SITE,
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const exited = new Promise<void>((resolve) =>
    child.once("exit", () => {
      process.off("exit", killOnExit);
      resolve();
    }),
  );
  child.stdout?.on("data", (d) => {
    output += d;
  });
  child.stderr?.on("data", (d) => {
    output += d;
  });
  const deadline = Date.now() + 45_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    try {
      if ((await fetch(`${SITE}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not start: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, output: () => output, exited };
}

const sha = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

describe.skipIf(!built)("fault: the server restarts during an upload", () => {
  const servers: Server[] = [];
  let dataDir = "";

  afterAll(async () => {
    for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill("SIGTERM");
    await Promise.all(servers.map((s) => s.exited));
    if (dataDir) await fsp.rm(dataDir, { recursive: true, force: true });
  }, 20_000);

  it("kill -9 mid-upload, restart on the same data folder, resend the unacknowledged chunks → the assembled audio is the recording", async () => {
    dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), "murmur-fault-restart-"));
    const first = await startServer(dataDir);
    servers.push(first);

    // An account, an organisation, a patient and a consented visit, through the public APIs.
    const keys = generatedKeys(first.output());
    const service = {
      apikey: keys.serviceRoleKey,
      authorization: `Bearer ${keys.serviceRoleKey}`,
      "content-type": "application/json",
    };
    const email = `restart-${randomUUID()}@example.test`;
    const created = await fetch(`${SITE}/auth/v1/admin/users`, {
      method: "POST",
      headers: service,
      body: JSON.stringify({ email, password: PASSWORD, email_confirm: true }),
    });
    expect(created.status).toBe(200);
    const signIn = await fetch(`${SITE}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { apikey: keys.anonKey, "content-type": "application/json" },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    const { access_token: token } = (await signIn.json()) as { access_token: string };
    const api = async (
      method: string,
      url: string,
      init: { json?: unknown; body?: Uint8Array; headers?: Record<string, string> } = {},
    ) => {
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...init.headers };
      if (orgId) headers["x-org-id"] = orgId;
      if (init.json !== undefined) headers["content-type"] = "application/json";
      const res = await fetch(`${SITE}${url}`, {
        method,
        headers,
        body: init.json !== undefined ? JSON.stringify(init.json) : (init.body as BodyInit | undefined),
      });
      const text = await res.text();
      // biome-ignore lint/suspicious/noExplicitAny: API answers are read loosely and asserted on.
      return { status: res.status, body: (text ? JSON.parse(text) : null) as any };
    };
    let orgId = "";
    const org = await api("POST", "/api/orgs", { json: { name: "Restart Practice" } });
    expect(org.status).toBe(201);
    orgId = org.body.id;
    const patient = await api("POST", "/api/patients", { json: { display_name: "Restart Patient" } });
    const visit = await api("POST", "/api/visits", { json: { patient_id: patient.body.id, language: "en", consent: true } });
    expect(visit.status).toBe(201);
    const visitId: string = visit.body.id;

    const chunks = webmChunks(12, 64 * 1024);
    const put = (seq: number) =>
      api("PUT", `/api/visits/${visitId}/audio/chunks/${seq}`, {
        body: chunks[seq],
        headers: { "x-chunk-sha256": sha(chunks[seq] as Uint8Array), "content-type": "application/octet-stream" },
      });
    const acknowledged = new Set<number>();
    for (let seq = 0; seq < 6; seq += 1) {
      const res = await put(seq);
      expect(res.status).toBe(200);
      acknowledged.add(seq);
    }
    // Chunks 6–8 are in flight when the server dies; whatever it had not answered is unacknowledged.
    const inFlight = [6, 7, 8].map((seq) =>
      put(seq).then(
        (res) => {
          if (res.status === 200) acknowledged.add(seq);
        },
        () => {},
      ),
    );
    first.child.kill("SIGKILL");
    await Promise.all(inFlight);
    await first.exited;
    expect(first.child.signalCode).toBe("SIGKILL");

    const second = await startServer(dataDir);
    servers.push(second);
    // The client resends every chunk it has no acknowledgement for (its local copy is still there).
    for (let seq = 0; seq < chunks.length; seq += 1) {
      if (acknowledged.has(seq)) continue;
      const res = await put(seq);
      expect(res.status, `chunk ${seq}`).toBe(200);
    }
    // An acknowledged chunk sent again (the client missed the answer) is a harmless duplicate.
    expect((await put(0)).body.duplicate).toBe(true);

    const expected = sha(Buffer.concat(chunks));
    const finished = await api("POST", `/api/visits/${visitId}/audio/finish`, {
      json: { chunks: chunks.length, chunk_sha256: chunks.map((c) => sha(c)) },
    });
    expect(finished.status).toBe(200);
    expect(finished.body.status).toBe("uploaded");
    expect(finished.body.audio).toMatchObject({ chunk_count: 12, bytes: 12 * 64 * 1024, sha256: expected });
    // The stored bytes themselves, read from the data folder.
    const blob = path.join(dataDir, "blobs", "orgs", orgId, "visits", visitId, "audio", expected);
    expect(sha(fs.readFileSync(blob))).toBe(expected);
  }, 90_000);
});
