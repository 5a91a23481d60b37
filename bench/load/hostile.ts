// The hostile mix (issue 25): the outside probe's requests — sign a 40 × 20,000-character note,
// that note's PDF, a note from an 887,000-character transcript, four parallel 100,000-character
// /api/coding/suggest calls — in a loop from one signed-up user while normal users poll /healthz
// and a signed-in page (the dashboard, with the browser's cookie session). Reports the normal
// users' p50/p95/p99, the hostile requests' statuses and times, and the server's own event-loop
// delay and RSS (bench/load/loop-probe.ts, preloaded: perf_hooks.monitorEventLoopDelay).
//
// Usage: node bench/load/hostile.ts [--seconds 60] [--users 4] [--db pglite|postgres] [--project DIR]
//          [--drafts 3] [--cpu-prof-dir DIR] [--quiet]
// --project runs another checkout's build (the "before" figures: a worktree of the older commit).
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { percentile } from "../web/load.ts";
import { type Instance, startInstance } from "./servers.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "60" },
    users: { type: "string", default: "4" },
    db: { type: "string", default: "pglite" },
    project: { type: "string" },
    drafts: { type: "string", default: "3" },
    "cpu-prof-dir": { type: "string" },
    // --quiet: the normal users alone, same set-up (the baseline for the same machine conditions).
    quiet: { type: "boolean", default: false },
  },
});
const BENCH_DIR = import.meta.dirname;
const projectDir = path.resolve(values.project ?? path.join(BENCH_DIR, "../.."));
const seconds = Number(values.seconds);
const users = Number(values.users);
const drafts = Number(values.drafts);
const PASSWORD = "Hostile-Bench-Password-42!";
const TARGET_P99_MS = 100;

type Json = Record<string, unknown>;
interface Who {
  token: string;
  orgId: string;
  cookie: string;
}
interface Sample {
  route: string;
  ms: number;
  status: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function call(base: string, who: Who | null, method: string, route: string, body?: unknown, timeoutMs = 120_000) {
  const headers: Record<string, string> = {};
  if (who) Object.assign(headers, { authorization: `Bearer ${who.token}`, "x-org-id": who.orgId });
  if (body !== undefined) headers["content-type"] = "application/json";
  const started = performance.now();
  try {
    const res = await fetch(`${base}${route}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let parsed: Json = {};
    try {
      parsed = JSON.parse(text) as Json;
    } catch {
      // a PDF or a page
    }
    return { status: res.status, body: parsed, ms: performance.now() - started, bytes: text.length };
  } catch {
    return { status: 0, body: {} as Json, ms: performance.now() - started, bytes: 0 };
  }
}

async function must(p: ReturnType<typeof call>, what: string, ok = [200, 201, 202]) {
  const r = await p;
  if (!ok.includes(r.status)) throw new Error(`${what} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body;
}

/** A user with a personal practice, a bearer token for the API and the browser's cookie for pages. */
async function signUp(base: string, keys: { anonKey: string; serviceRoleKey: string }, name: string): Promise<Who> {
  const email = `${name}-${randomUUID().slice(0, 8)}@example.test`;
  const auth = (key: string) => ({ apikey: key, authorization: `Bearer ${key}`, "content-type": "application/json" });
  await fetch(`${base}/auth/v1/admin/users`, {
    method: "POST",
    headers: auth(keys.serviceRoleKey),
    body: JSON.stringify({ email, password: PASSWORD, email_confirm: true, user_metadata: { full_name: `Dr ${name}` } }),
  });
  const token = (await (
    await fetch(`${base}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: auth(keys.anonKey),
      body: JSON.stringify({ email, password: PASSWORD }),
    })
  ).json()) as Json;
  const who: Who = { token: String(token.access_token), orgId: "", cookie: "" };
  const org = await must(call(base, who, "POST", "/api/orgs/personal"), "personal org");
  who.orgId = String(org.id);
  // The browser's way in: the sign-in form, whose answer sets the session cookie.
  const login = await fetch(`${base}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
    body: new URLSearchParams({ intent: "password", email, password: PASSWORD }),
  });
  who.cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (!who.cookie) throw new Error(`sign-in form answered ${login.status} without a cookie`);
  return who;
}

function transcriptOf(chars: number): string {
  const lines = [
    "Doctor: Any chest pain or shortness of breath since starting metformin 500 mg twice daily?",
    "Patient: I have had a headache for three days and some nausea, my blood pressure was 150 over 90.",
    "Doctor: Let us check your blood sugar and order a lipid panel; continue lisinopril 10 mg daily.",
  ];
  let text = "";
  for (let i = 0; text.length < chars; i += 1) text += `${lines[i % 3]}\n`;
  return text.slice(0, chars);
}

function randomText(length: number, seed: number): string {
  let s = seed;
  let out = "";
  for (let i = 0; i < length; i += 1) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    out += s % 7 === 0 ? " " : String.fromCharCode(97 + (s % 26));
  }
  return out;
}

async function visitWithTranscript(base: string, who: Who, patientId: string, chars: number): Promise<string> {
  const visit = await must(
    call(base, who, "POST", "/api/visits", { patient_id: patientId, language: "en", consent: true, title: "Hostile" }),
    "visit",
  );
  await must(call(base, who, "POST", `/api/visits/${visit.id}/transcript`, { text: transcriptOf(chars) }), "transcript");
  return String(visit.id);
}

async function waitForDraft(base: string, who: Who, noteId: string): Promise<Json> {
  for (const deadline = Date.now() + 900_000; Date.now() < deadline; await sleep(1000)) {
    const note = await call(base, who, "GET", `/api/notes/${noteId}`);
    if (note.body.status === "draft" || note.body.status === "failed") return note.body;
  }
  throw new Error(`note ${noteId} never left generating`);
}

/** The probe's note: a 40-section template, generated, then every section replaced by 20,000 characters. */
async function hugeDraft(base: string, who: Who, visitId: string, templateId: string, seed: number): Promise<string> {
  const created = await must(call(base, who, "POST", `/api/visits/${visitId}/notes`, { template_id: templateId }), "note");
  const noteId = String(created.id);
  await waitForDraft(base, who, noteId);
  const sections = Array.from({ length: 40 }, (_, i) => ({ key: `s${i}`, text: randomText(20_000, seed * 100 + i) }));
  await must(call(base, who, "PUT", `/api/notes/${noteId}`, { sections }), "huge note");
  return noteId;
}

function table(samples: Sample[]): string {
  const routes = [...new Set(samples.map((s) => s.route))];
  const rows = routes.map((route) => {
    const mine = samples.filter((s) => s.route === route);
    const ms = mine.map((s) => s.ms).sort((a, b) => a - b);
    const statuses = [...new Set(mine.map((s) => s.status))].sort().join(", ");
    const f = (n: number) => n.toFixed(1);
    return `| ${route} | ${mine.length} | ${f(percentile(ms, 50))} | ${f(percentile(ms, 95))} | ${f(percentile(ms, 99))} | ${f(ms.at(-1) ?? Number.NaN)} | ${statuses} |`;
  });
  return ["| request | count | p50 ms | p95 ms | p99 ms | max ms | statuses |", "|---|--:|--:|--:|--:|--:|---|", ...rows].join(
    "\n",
  );
}

async function main(): Promise<number> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "murmur-hostile-"));
  const probeFile = path.join(dataDir, "loop-probe.jsonl");
  let dbUrl = "";
  let dbName = "";
  if (values.db === "postgres") {
    const admin = process.env.DATABASE_URL;
    if (!admin) throw new Error("--db postgres needs DATABASE_URL");
    dbName = `murmur_hostile_${randomUUID().replaceAll("-", "").slice(0, 10)}`;
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(`create database ${dbName}`);
    await c.end();
    const u = new URL(admin);
    u.pathname = `/${dbName}`;
    dbUrl = u.toString();
  }
  let server: Instance | null = null;
  try {
    const port = 3202;
    server = await startInstance(
      projectDir,
      port,
      {
        MURMUR_DATA_DIR: path.join(dataDir, "data"),
        DATABASE_URL: dbUrl,
        MURMUR_SECRET_KEY: randomBytes(32).toString("base64"),
        SITE_URL: `http://127.0.0.1:${port}`,
        LOOP_PROBE_FILE: probeFile,
      },
      ["auth keys generated"],
      values["cpu-prof-dir"] ? path.resolve(values["cpu-prof-dir"]) : undefined,
      ["--import", path.join(BENCH_DIR, "loop-probe.ts")],
    );
    const base = server.url;
    const keysLine = server.keysLine();
    if (!keysLine) throw new Error("the server did not log its generated auth keys");
    const keys = JSON.parse(keysLine) as { anonKey: string; serviceRoleKey: string };

    console.log(`Node ${process.version}, ${os.cpus()[0]?.model.trim()} × ${os.cpus().length}; project ${projectDir}`);
    console.log(`Database: ${values.db}; load average before: ${os.loadavg()[0]?.toFixed(2)}`);

    // Set-up (not measured): the hostile user's huge drafts, the long-transcript visit.
    const hostile = await signUp(base, keys, "hostile");
    const patient = await must(call(base, hostile, "POST", "/api/patients", { display_name: "Hostile patient" }), "patient");
    const template = await must(
      call(base, hostile, "POST", "/api/templates", {
        name: "Forty sections",
        language: "en",
        sections: Array.from({ length: 40 }, (_, i) => ({
          key: `s${i}`,
          title: `Section ${i}`,
          kind: "other",
          header: "always",
          style: "prose",
          verbosity: "standard",
          persistent: false,
        })),
      }),
      "template",
    );
    const templateId = String(template.id);
    const smallVisit = await visitWithTranscript(base, hostile, String(patient.id), 2_000);
    const longVisit = await visitWithTranscript(base, hostile, String(patient.id), 887_000);
    const noteIds: string[] = [];
    for (let i = 0; i < drafts; i++) noteIds.push(await hugeDraft(base, hostile, smallVisit, templateId, i + 1));
    const normal = await Promise.all(Array.from({ length: users }, (_, i) => signUp(base, keys, `normal${i}`)));
    console.log(`Set-up done: ${drafts} huge drafts; load average ${os.loadavg()[0]?.toFixed(2)}`);

    fs.writeFileSync(probeFile, "");
    const samples: Sample[] = [];
    const hostileSamples: Sample[] = [];
    const endAt = Date.now() + seconds * 1000;
    const loadAvg: number[] = [];
    const loadTimer = setInterval(() => loadAvg.push(os.loadavg()[0] ?? 0), 5_000);

    const normalUser = async (who: Who) => {
      while (Date.now() < endAt) {
        const started = performance.now();
        let status = 0;
        try {
          status = (await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(120_000) })).status;
        } catch {}
        samples.push({ route: "GET /healthz", ms: performance.now() - started, status });
        const pageStarted = performance.now();
        let pageStatus = 0;
        try {
          const res = await fetch(`${base}/dashboard`, {
            headers: { cookie: who.cookie },
            redirect: "manual",
            signal: AbortSignal.timeout(120_000),
          });
          await res.text();
          pageStatus = res.status;
        } catch {}
        samples.push({ route: "GET /dashboard (signed in)", ms: performance.now() - pageStarted, status: pageStatus });
        await sleep(250);
      }
    };
    const hostileLoop = async (route: string, run: () => ReturnType<typeof call>, pauseMs = 0) => {
      while (Date.now() < endAt) {
        const r = await run();
        hostileSamples.push({ route, ms: r.ms, status: r.status });
        await sleep(pauseMs);
      }
    };
    const codingText = transcriptOf(100_000);
    let signIndex = 0;
    const hostileLoops = () => [
      hostileLoop("POST sign (40 × 20,000 chars)", async () => {
        const noteId = noteIds[signIndex++];
        if (!noteId) return { status: -1, body: {}, ms: 0, bytes: 0 };
        return call(base, hostile, "POST", `/api/notes/${noteId}/sign`);
      }),
      hostileLoop("GET that note's PDF", () => call(base, hostile, "GET", `/api/notes/${noteIds[0]}/pdf`)),
      hostileLoop(
        "POST note from 887,000-char transcript",
        () => call(base, hostile, "POST", `/api/visits/${longVisit}/notes`, { template_id: "builtin:soap" }),
        5_000,
      ),
      ...[0, 1, 2, 3].map(() =>
        hostileLoop("POST /api/coding/suggest (100,000 chars)", () =>
          call(base, hostile, "POST", "/api/coding/suggest", { text: codingText }),
        ),
      ),
    ];
    await Promise.all([...normal.map((who) => normalUser(who)), ...(values.quiet ? [] : hostileLoops())]);
    clearInterval(loadTimer);
    const probe = fs
      .readFileSync(probeFile, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { p99: number; max: number; rssMiB: number });

    console.log(
      `\n## Normal users ${values.quiet ? "alone (--quiet)" : "during the hostile mix"} (${seconds} s; load average ${Math.min(...loadAvg).toFixed(1)}–${Math.max(...loadAvg).toFixed(1)})\n`,
    );
    console.log(table(samples));
    console.log("\n## Hostile requests (a request still running at the end is not counted)\n");
    console.log(table(hostileSamples.filter((s) => s.status !== -1)));
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const p99s = sorted(probe.map((p) => p.p99));
    const maxes = sorted(probe.map((p) => p.max));
    const rss = sorted(probe.map((p) => p.rssMiB));
    console.log("\n## Server (web thread event-loop delay per second, RSS)\n");
    console.log(
      "| seconds sampled | median of per-second p99 ms | worst per-second p99 ms | worst delay ms | RSS median / max MiB |",
    );
    console.log("|--:|--:|--:|--:|--:|");
    console.log(
      `| ${probe.length} | ${percentile(p99s, 50).toFixed(1)} | ${(p99s.at(-1) ?? Number.NaN).toFixed(1)} | ${(maxes.at(-1) ?? Number.NaN).toFixed(1)} | ${percentile(rss, 50).toFixed(0)} / ${(rss.at(-1) ?? Number.NaN).toFixed(0)} |`,
    );
    for (const route of ["GET /healthz", "GET /dashboard (signed in)"]) {
      const p99 = percentile(sorted(samples.filter((s) => s.route === route).map((s) => s.ms)), 99);
      console.log(
        `${route} p99 ${p99.toFixed(1)} ms (target ≤ ${TARGET_P99_MS} ms): ${p99 <= TARGET_P99_MS ? "met" : "NOT met"}`,
      );
    }
    return 0;
  } finally {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (dbName && process.env.DATABASE_URL) {
      const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await c.connect();
      await c.query(`drop database if exists ${dbName} with (force)`);
      await c.end();
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
