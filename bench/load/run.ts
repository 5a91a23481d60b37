// Load and scale figures (issue 17): concurrent recordings uploading chunks while users browse,
// on the embedded database or a server PostgreSQL, with one instance or two behind a round-robin
// proxy. Prints latency per route, lost/duplicated chunks (checked by the server's own finish
// manifest check), server memory over the run, and which instance ran the transcription jobs.
//
// Usage: node bench/load/run.ts [--minutes 10] [--recordings 50] [--browsers 20] [--chunk-seconds 5]
//          [--chunk-bytes 20000] [--db pglite|postgres] [--instances 1|2] [--cpu-prof-dir DIR]
// --cpu-prof-dir runs each server under `node --cpu-prof` and leaves one .cpuprofile per instance
// in DIR (summarise with `node bench/load/profile.ts DIR/<file>.cpuprofile`).
// --db postgres needs DATABASE_URL pointing at a server (a fresh database is created and dropped).
// Reports; a missed target does not fail the run, a broken run does (exit 1).
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { percentile } from "../web/load.ts";
import { browse, type ChunkLog, headers, record, type Sample, type Session } from "./clients.ts";
import { type Instance, roundRobin, rssMiB, startInstance } from "./servers.ts";

const PROJECT_DIR = path.resolve(import.meta.dirname, "../..");
const JOB_DONE = "transcribe-visit job done";
const PASSWORD = "Load-Bench-Password-42!";
const CHUNK_P95_TARGET_MS = 100;

const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "10" },
    recordings: { type: "string", default: "50" },
    browsers: { type: "string", default: "20" },
    "chunk-seconds": { type: "string", default: "5" },
    "chunk-bytes": { type: "string", default: "20000" },
    db: { type: "string", default: "pglite" },
    instances: { type: "string", default: "1" },
    "cpu-prof-dir": { type: "string" },
  },
});
const minutes = Number(values.minutes);
const recordings = Number(values.recordings);
const browsers = Number(values.browsers);
const intervalMs = Number(values["chunk-seconds"]) * 1000;
const chunkBytes = Number(values["chunk-bytes"]);
const instances = Number(values.instances);
const cpuProfDir = values["cpu-prof-dir"] ? path.resolve(values["cpu-prof-dir"]) : undefined;
const dbKind = values.db === "postgres" ? "postgres" : "pglite";
if (instances > 1 && dbKind !== "postgres") throw new Error("two instances need --db postgres (PGlite belongs to one process)");

async function adminPg<T>(url: string, run: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function json(res: Response, what: string): Promise<Record<string, unknown>> {
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${what} answered ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

async function setUp(base: string, keys: { anonKey: string; serviceRoleKey: string }): Promise<Session[]> {
  // Five recordings per clinician, each clinician in their own practice (a trial allows 50 visits a month).
  const users = Math.max(1, Math.ceil(recordings / 5));
  const sessions: Session[] = [];
  for (let u = 0; u < users; u++) {
    const email = `load-${u}-${randomUUID().slice(0, 8)}@example.test`;
    const auth = (key: string, token = key) => ({
      apikey: key,
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
    });
    await json(
      await fetch(`${base}/auth/v1/admin/users`, {
        method: "POST",
        headers: auth(keys.serviceRoleKey),
        body: JSON.stringify({ email, password: PASSWORD, email_confirm: true, user_metadata: { full_name: `Dr Load ${u}` } }),
      }),
      "create user",
    );
    const signedIn = await json(
      await fetch(`${base}/auth/v1/token?grant_type=password`, {
        method: "POST",
        headers: auth(keys.anonKey),
        body: JSON.stringify({ email, password: PASSWORD }),
      }),
      "sign in",
    );
    const token = String(signedIn.access_token);
    const org = await json(
      await fetch(`${base}/api/orgs/personal`, { method: "POST", headers: { authorization: `Bearer ${token}` } }),
      "personal org",
    );
    const session: Session = { token, orgId: String(org.id), visitIds: [] };
    const patient = await json(
      await fetch(`${base}/api/patients`, {
        method: "POST",
        headers: headers(session, { "content-type": "application/json" }),
        body: JSON.stringify({ display_name: `Load patient ${u}` }),
      }),
      "patient",
    );
    const mine = Math.min(5, recordings - u * 5);
    for (let v = 0; v < mine; v++) {
      const visit = await json(
        await fetch(`${base}/api/visits`, {
          method: "POST",
          headers: headers(session, { "content-type": "application/json" }),
          body: JSON.stringify({ patient_id: patient.id, language: "en", consent: true, title: `Load visit ${v}` }),
        }),
        "visit",
      );
      session.visitIds.push(String(visit.id));
    }
    sessions.push(session);
  }
  return sessions;
}

function routeTable(samples: Sample[]): string {
  const routes = [...new Set(samples.map((s) => s.route))];
  const rows = routes.map((route) => {
    const mine = samples.filter((s) => s.route === route);
    const ms = mine.map((s) => s.ms).sort((a, b) => a - b);
    const bad = mine.filter((s) => s.status < 200 || s.status >= 300).length;
    const f = (n: number) => n.toFixed(1);
    return `| ${route} | ${mine.length} | ${f(percentile(ms, 50))} | ${f(percentile(ms, 95))} | ${f(percentile(ms, 99))} | ${f(ms.at(-1) ?? Number.NaN)} | ${bad} |`;
  });
  return ["| route | requests | p50 ms | p95 ms | p99 ms | max ms | non-2xx |", "|---|---|---|---|---|---|---|", ...rows].join(
    "\n",
  );
}

/** Least-squares slope in MiB per minute. */
function slope(points: { t: number; mib: number }[]): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mt = points.reduce((a, p) => a + p.t, 0) / n;
  const mm = points.reduce((a, p) => a + p.mib, 0) / n;
  const num = points.reduce((a, p) => a + (p.t - mt) * (p.mib - mm), 0);
  const den = points.reduce((a, p) => a + (p.t - mt) ** 2, 0);
  return den ? (num / den) * 60_000 : Number.NaN;
}

async function main(): Promise<number> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "murmur-load-"));
  let dbUrl = "";
  let dbName = "";
  if (dbKind === "postgres") {
    const admin = process.env.DATABASE_URL;
    if (!admin) throw new Error("--db postgres needs DATABASE_URL");
    dbName = `murmur_load_${randomUUID().replaceAll("-", "").slice(0, 10)}`;
    await adminPg(admin, (c) => c.query(`create database ${dbName}`));
    const u = new URL(admin);
    u.pathname = `/${dbName}`;
    dbUrl = u.toString();
  }
  const servers: Instance[] = [];
  let proxy: { url: string; stop(): Promise<void> } | null = null;
  try {
    const env = {
      MURMUR_DATA_DIR: dataDir,
      DATABASE_URL: dbUrl,
      MURMUR_SECRET_KEY: randomBytes(32).toString("base64"),
      SITE_URL: "http://127.0.0.1",
    };
    // The first instance migrates and generates the auth keys; the second starts on what it made.
    servers.push(await startInstance(PROJECT_DIR, 4700 + Math.floor(Math.random() * 200), env, [JOB_DONE], cpuProfDir));
    for (let i = 1; i < instances; i++)
      servers.push(await startInstance(PROJECT_DIR, 4900 + i + Math.floor(Math.random() * 90), env, [JOB_DONE], cpuProfDir));
    const keysLine = servers[0]?.keysLine();
    if (!keysLine) throw new Error("the first instance did not log its generated auth keys");
    const keys = JSON.parse(keysLine) as { anonKey: string; serviceRoleKey: string };
    if (instances > 1) proxy = await roundRobin(servers.map((s) => s.url));
    const base = proxy?.url ?? servers[0]?.url ?? "";

    const cpus = os.cpus();
    console.log(
      `Node ${process.version}, ${cpus[0]?.model.trim()} × ${cpus.length}; load average before: ${os.loadavg()[0]?.toFixed(2)}`,
    );
    console.log(`Database: ${dbKind}; instances: ${instances}${proxy ? " behind a round-robin proxy" : ""}`);
    console.log(
      `Load: ${recordings} recordings × a ${chunkBytes}-byte chunk every ${intervalMs / 1000} s, ${browsers} browsing users, ${minutes} min`,
    );

    const sessions = await setUp(base, keys);
    const visits = sessions.flatMap((s) => s.visitIds.map((id) => ({ session: s, id })));
    const samples: Sample[] = [];
    const memory = servers.map(() => [] as { t: number; mib: number }[]);
    const t0 = Date.now();
    const endAt = t0 + minutes * 60_000;
    const sampler = setInterval(() => {
      servers.forEach((s, i) => {
        const mib = rssMiB(s.pid);
        if (mib !== null) memory[i]?.push({ t: Date.now() - t0, mib });
      });
    }, 5_000);
    const loadAvg: number[] = [];
    const loadSampler = setInterval(() => loadAvg.push(os.loadavg()[0] ?? 0), 10_000);

    const recorders = visits.map((v, i) =>
      record(
        base,
        v.session,
        v.id,
        { endAt, intervalMs, bytes: chunkBytes, startDelayMs: (i * intervalMs) / visits.length },
        samples,
      ),
    );
    const browsing = Array.from({ length: browsers }, (_, i) =>
      browse(base, sessions[i % sessions.length] as Session, { endAt, thinkMs: 1_000 }, samples),
    );
    const logs: ChunkLog[] = await Promise.all(recorders);
    await Promise.all(browsing);
    clearInterval(sampler);
    clearInterval(loadSampler);

    // Every acknowledged chunk must be stored once with its bytes: the server's finish checks the
    // manifest (numbers 0…n-1, each chunk's SHA-256, the byte total) and refuses any difference.
    let lost = 0;
    let mismatched = 0;
    let acknowledged = 0;
    for (const log of logs) {
      const visit = visits.find((v) => v.id === log.visitId);
      if (!visit) continue;
      acknowledged += log.acknowledged.length;
      const res = await fetch(`${base}/api/visits/${log.visitId}/audio/finish`, {
        method: "POST",
        headers: headers(visit.session, { "content-type": "application/json" }),
        body: JSON.stringify({
          chunks: log.acknowledged.length,
          bytes: log.acknowledged.length * chunkBytes,
          chunk_sha256: log.acknowledged,
        }),
      });
      const body = (await res.json()) as {
        code?: string;
        missing?: number[];
        mismatched?: number[];
        audio?: { chunk_count?: number };
      };
      if (res.status === 409 && body.code === "chunks_missing") lost += body.missing?.length ?? 0;
      else if (!res.ok) mismatched += 1;
      else if (body.audio?.chunk_count !== undefined && body.audio.chunk_count !== log.acknowledged.length) mismatched += 1;
    }
    // The finished visits queue transcription jobs (the chunks are random bytes, so each job ends
    // quickly with an "audio could not be decoded" outcome): see which instance ran them.
    const jobsDeadline = Date.now() + 120_000;
    const jobsDone = () => servers.reduce((a, s) => a + s.count(JOB_DONE), 0);
    while (jobsDone() < visits.length && Date.now() < jobsDeadline) await new Promise((r) => setTimeout(r, 1_000));

    console.log(
      `\n## Latency under load (${samples.length} requests; load average during the run ${Math.min(...loadAvg).toFixed(1)}–${Math.max(...loadAvg).toFixed(1)})\n`,
    );
    console.log(routeTable(samples));
    const retries = logs.reduce((a, l) => a + l.retries, 0);
    console.log(
      `\n## Chunks\n\n| acknowledged | lost | duplicated or mismatched visits | retried PUTs |\n|---|---|---|---|\n| ${acknowledged} | ${lost} | ${mismatched} | ${retries} |`,
    );
    console.log(
      "\n## Server memory (RSS, MiB)\n\n| instance | first minute | last minute | max | slope MiB/min |\n|---|---|---|---|---|",
    );
    memory.forEach((points, i) => {
      const first = points.filter((p) => p.t < 60_000).map((p) => p.mib);
      const last = points.filter((p) => p.t > minutes * 60_000 - 60_000).map((p) => p.mib);
      const med = (xs: number[]) =>
        xs.length ? ([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN) : Number.NaN;
      // Slope after the first minute: start-up and JIT warm-up are not growth.
      const settled = points.filter((p) => p.t >= 60_000);
      console.log(
        `| ${i + 1} | ${med(first).toFixed(0)} | ${med(last).toFixed(0)} | ${Math.max(...points.map((p) => p.mib)).toFixed(0)} | ${slope(settled).toFixed(2)} |`,
      );
    });
    // Per minute, so a reader can tell a plateau (warm-up, caches filling) from steady growth.
    console.log("\nRSS median per minute (MiB):");
    memory.forEach((points, i) => {
      const perMinute: string[] = [];
      for (let m = 0; m < minutes; m++) {
        const xs = points.filter((p) => p.t >= m * 60_000 && p.t < (m + 1) * 60_000).map((p) => p.mib);
        if (xs.length) perMinute.push(([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0).toFixed(0));
      }
      console.log(`instance ${i + 1}: ${perMinute.join(" → ")}`);
    });
    console.log("\n## Transcription jobs by instance\n\n| instance | jobs run |\n|---|---|");
    for (const [i, s] of servers.entries()) console.log(`| ${i + 1} | ${s.count(JOB_DONE)} |`);
    console.log(`| all | ${jobsDone()} of ${visits.length} |`);
    const put = samples
      .filter((s) => s.route === "PUT chunk")
      .map((s) => s.ms)
      .sort((a, b) => a - b);
    const p95 = percentile(put, 95);
    console.log(
      `\nChunk PUT p95 ${p95.toFixed(1)} ms (target ≤ ${CHUNK_P95_TARGET_MS} ms on PostgreSQL): ${p95 <= CHUNK_P95_TARGET_MS ? "met" : "NOT met"}`,
    );
    return lost === 0 && mismatched === 0 ? 0 : 1;
  } finally {
    await proxy?.stop();
    for (const s of servers) await s.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (dbName && process.env.DATABASE_URL) {
      await adminPg(process.env.DATABASE_URL, (c) => c.query(`drop database if exists ${dbName} with (force)`));
    }
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
