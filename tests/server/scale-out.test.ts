import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { generatedKeys } from "#tests/e2e/server-process.ts";
import { haveEspeak, speak } from "#tests/speech/synth.ts";
import { type ApiClient, signUpWithPractice } from "./api-client.ts";
import { startFakeEngines } from "./fake-engines.ts";
import { built, freePort, type ServerChild, startServerChild, stoppedOnRequest, until } from "./server-child.ts";

// Issue 25 "Web and worker roles" (ADR 0038): 2 web + 2 worker `node server.ts` processes on one
// server PostgreSQL and one data folder, as an operator runs them. Six recordings (espeak-ng speech,
// transcribed by the real pocketsphinx engine in the workers) are uploaded and their notes asked for
// through both web processes; a worker is killed with SIGKILL while it holds a note job (and started
// again, as its supervisor would). Every visit
// is transcribed once, every note generated once, and a client on the *other* web process sees the
// progress events, and the auth API's rate limits are one budget across the web processes. The note engine is the fake OpenAI-compatible server, held so the kill lands
// while both workers are inside a note job.

const serverUrl = process.env.DATABASE_URL;
const SKIP_REASON = !built
  ? "no build: run `npx react-router build` first"
  : !serverUrl
    ? "DATABASE_URL is not set: web and worker roles need a server PostgreSQL (CI sets it)"
    : !haveEspeak
      ? "espeak-ng is not installed"
      : null;
if (SKIP_REASON) console.warn(`tests/server/scale-out.test.ts skipped: ${SKIP_REASON}`);

const VISITS = 6;
const SENTENCES = [
  "The patient reports a sore throat for three days.",
  "Blood pressure is one hundred twenty over eighty.",
  "She has a mild cough and no fever.",
  "Take ibuprofen twice a day with food.",
  "The left knee is swollen after a fall.",
  "Follow up in two weeks if the pain continues.",
];

async function admin(url: string, statement: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(statement, params)).rows;
  } finally {
    await client.end();
  }
}

interface EventLog {
  events: { name: string; data: { status?: string } }[];
  done: Promise<void>;
  close(): void;
}

/** Follows a server-sent events stream as a browser's EventSource would, recording every event. */
function follow(site: string, api: ApiClient, url: string): EventLog {
  const controller = new AbortController();
  const events: EventLog["events"] = [];
  const done = (async () => {
    const res = await fetch(`${site}${url}`, {
      headers: { authorization: `Bearer ${api.token}`, "x-org-id": api.orgId, accept: "text/event-stream" },
      signal: controller.signal,
    });
    if (res.status !== 200 || !res.body) throw new Error(`${url}: ${res.status}`);
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of res.body) {
      buffer += decoder.decode(chunk, { stream: true });
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const name = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (name && data) events.push({ name, data: JSON.parse(data) });
        end = buffer.indexOf("\n\n");
      }
    }
  })().catch((error: unknown) => {
    if (!controller.signal.aborted) throw error;
  });
  return { events, done, close: () => controller.abort() };
}

describe.skipIf(SKIP_REASON !== null)("2 web + 2 worker processes on one PostgreSQL", () => {
  const servers: ServerChild[] = [];
  const cleanups: (() => Promise<unknown>)[] = [];

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.terminate({ giveUpMs: 5000 })));
    for (const clean of cleanups.reverse()) await clean().catch(() => {});
  }, 60_000);

  it("transcribes every visit once and generates every note once across a worker's kill -9; events reach the other web process", async () => {
    const started = Date.now();
    const dbName = `murmur_scale_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    await admin(serverUrl ?? "", `create database ${dbName}`);
    cleanups.push(() => admin(serverUrl ?? "", `drop database if exists ${dbName} with (force)`));
    const databaseUrl = Object.assign(new URL(serverUrl ?? ""), { pathname: `/${dbName}` }).toString();
    const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), "murmur-scale-"));
    cleanups.push(() => fsp.rm(dataDir, { recursive: true, force: true }));
    const fake = await startFakeEngines();
    cleanups.push(() => fake.close());

    // What must be equal across the processes (docs/operations.md "Scaling out").
    const siteUrl = `http://127.0.0.1:${await freePort()}`;
    const shared = {
      DATABASE_URL: databaseUrl,
      MURMUR_SECRET_KEY: randomBytes(32).toString("base64"),
      SITE_URL: siteUrl,
      ASR_ENGINE: "pocketsphinx",
      NOTES_ENGINE: "openai-compatible",
      LLM_OPENAI_BASE_URL: `${fake.url}/v1`,
      LLM_OPENAI_MODEL: "fake-model",
      // Small, so the test can show one budget counted across both web processes.
      AUTH_RATE_LIMIT_VERIFY: "4",
    };
    const start = async (role: "web" | "worker") => {
      const server = await startServerChild({
        dataDir,
        port: await freePort(),
        readyTimeoutMs: 240_000,
        // A dead worker's job goes back to the queue 30 s (heartbeat) + up to this after its last sign of life.
        env: { ...shared, MURMUR_ROLE: role, ...(role === "worker" ? { JOBS_SUPERVISE_SECONDS: "5" } : {}) },
      });
      servers.push(server);
      return server;
    };
    // The first web process migrates the database and generates the auth keys (printed once); the
    // other three start together on the migrated database.
    const webA = await start("web");
    const [webB, worker1, worker2] = await Promise.all([start("web"), start("worker"), start("worker")]);
    if (!webB || !worker1 || !worker2) throw new Error("a process did not start");
    const ready = Date.now();

    // A worker serves its health probes and nothing else.
    expect((await fetch(`${worker1.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${worker1.url}/readyz`)).status).toBe(200);
    expect((await fetch(`${worker1.url}/login`)).status).toBe(404);

    const api = await signUpWithPractice(webA.url, webA.output(), "Scale Out Practice");
    const webs = [webA, webB];
    const via = (i: number) => api.at(webs[i % 2]?.url ?? "");
    const other = (i: number) => webs[(i + 1) % 2]?.url ?? "";
    const patient = await via(0).call("POST", "/api/patients", { json: { display_name: "Scale Patient" } });
    expect(patient.status).toBe(201);
    // This proof asks for each note through a web process: no automatic draft beside it (issue 29).
    await admin(
      databaseUrl,
      `update public.organizations set settings = coalesce(settings, '{}'::jsonb) || '{"auto_draft": false}'::jsonb where id = $1`,
      [api.orgId],
    );

    // Six spoken recordings, each uploaded through one web process and followed from the other.
    const audioDir = path.join(dataDir, "test-audio");
    await fsp.mkdir(audioDir);
    const visitIds: string[] = [];
    const visitEvents: EventLog[] = [];
    for (let i = 0; i < VISITS; i += 1) {
      const visit = await via(i).call("POST", "/api/visits", {
        json: { patient_id: patient.body.id, language: "en", consent: true },
      });
      expect(visit.status).toBe(201);
      visitIds.push(visit.body.id);
      visitEvents.push(follow(other(i), api, `/api/visits/${visit.body.id}/events`));
    }
    for (let i = 0; i < VISITS; i += 1) {
      const wav = fs.readFileSync(speak(SENTENCES[i] ?? "", path.join(audioDir, `${i}.wav`)));
      const uploaded = await via(i).call("POST", `/api/visits/${visitIds[i]}/audio`, {
        body: Uint8Array.from(wav),
        headers: { "content-type": "audio/wav" },
      });
      expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    }
    await Promise.all(visitEvents.map((log) => log.done));
    for (const [i, log] of visitEvents.entries()) {
      expect(log.events.at(-1), `visit ${i}'s last event, seen on the other web process`).toMatchObject({
        name: "done",
        data: { status: "transcribed" },
      });
    }
    const transcribedAt = Date.now();

    // Notes, asked for through both web processes while the engine holds every call.
    fake.state.chat = "hold";
    const noteIds: string[] = [];
    const noteEvents: EventLog[] = [];
    for (let i = 0; i < VISITS; i += 1) {
      const note = await via(i + 1).call("POST", `/api/visits/${visitIds[i]}/notes`, { json: { template_id: "builtin:soap" } });
      expect(note.status, JSON.stringify(note.body)).toBe(202);
      noteIds.push(note.body.id);
      noteEvents.push(follow(other(i + 1), api, `/api/notes/${note.body.id}/events`));
    }
    // One note job at a time per worker: two active jobs means each worker is inside one.
    const activeNoteJobs = async () =>
      (await admin(databaseUrl, "select id from pgboss.job where name = 'generate-note' and state = 'active'")).length;
    await until("both workers to hold a note job", async () => (await activeNoteJobs()) === 2, 60_000);
    worker1.child.kill("SIGKILL");
    expect((await worker1.exited).signal).toBe("SIGKILL");
    const killedAt = Date.now();
    fake.state.chat = "answer";
    fake.release("chat");
    // Its supervisor starts it again (systemd's Restart=always): the new process takes its share of
    // the queue at once, while the job the dead one held waits for its heartbeat to lapse.
    const worker3 = await start("worker");

    await Promise.all(noteEvents.map((log) => log.done));
    const notesAt = Date.now();
    for (const [i, log] of noteEvents.entries()) {
      const statuses = log.events.map((e) => `${e.name}:${e.data.status}`);
      expect(statuses[0], `note ${i}: generating, seen on the other web process`).toBe("status:generating");
      expect(statuses.at(-1), `note ${i}: done, seen on the other web process`).toBe("done:draft");
    }

    // Straight from the database: one engine transcript per visit, one note per visit, one job per
    // note that ended `completed` — and the killed worker's job among them, retried.
    const transcripts = await admin(
      databaseUrl,
      "select visit_id, count(*)::int as n from public.transcriptions where visit_id = any($1) group by visit_id",
      [visitIds],
    );
    expect(transcripts.map((r) => r.n)).toEqual(Array(VISITS).fill(1));
    const notes = await admin(
      databaseUrl,
      "select visit_id, count(*)::int as n from public.notes where visit_id = any($1) group by visit_id",
      [visitIds],
    );
    expect(notes.map((r) => r.n)).toEqual(Array(VISITS).fill(1));
    const noteJobs = await admin(
      databaseUrl,
      "select data->>'noteId' as note, state, retry_count from pgboss.job where name = 'generate-note' order by created_on",
    );
    expect(new Set(noteJobs.map((j) => j.note))).toEqual(new Set(noteIds));
    for (const id of noteIds)
      expect(
        noteJobs.some((j) => j.note === id && j.state === "completed"),
        `note ${id}'s job`,
      ).toBe(true);
    expect(noteJobs.filter((j) => j.retry_count > 0).length, "the killed worker's job, retried").toBeGreaterThanOrEqual(1);
    for (const id of noteIds) {
      const note = await via(0).call("GET", `/api/notes/${id}`);
      expect(note.body.status).toBe("draft");
    }

    // The roles held: web processes ran no job; the workers ran them all.
    const jobLines = (s: ServerChild) => s.lines().filter((l) => /job done$/.test(String(l.msg)));
    expect(jobLines(webA).length + jobLines(webB).length).toBe(0);
    const notesDone = (s: ServerChild) => jobLines(s).filter((l) => l.msg === "generate-note job done").length;
    expect(notesDone(worker2) + notesDone(worker3)).toBeGreaterThanOrEqual(VISITS);

    // Rate limits live in the database: verifying bogus links alternately through both web
    // processes, the fifth attempt from this IP is refused whichever process it reaches.
    const { anonKey } = generatedKeys(webA.output());
    const verifyStatuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const res = await fetch(`${webs[i % 2]?.url}/auth/v1/verify`, {
        method: "POST",
        headers: { apikey: anonKey, "content-type": "application/json" },
        body: JSON.stringify({ type: "magiclink", token_hash: randomBytes(16).toString("hex") }),
      });
      verifyStatuses.push(res.status);
    }
    expect(
      verifyStatuses.slice(0, 4).every((s) => s !== 429 && s >= 400 && s < 500),
      verifyStatuses.join(),
    ).toBe(true);
    expect(verifyStatuses.slice(4), verifyStatuses.join()).toEqual([429, 429]);

    // Both roles stop on SIGTERM within their shutdown time, as a supervisor stops them.
    for (const server of [webB, worker2, worker3]) expect(stoppedOnRequest(await server.terminate())).toBe(true);

    const durations = await admin(
      databaseUrl,
      `select name, round(extract(epoch from completed_on - started_on)::numeric, 1)::float as s
         from pgboss.job where name in ('transcribe-visit', 'generate-note') and state = 'completed' order by name, s`,
    );
    const list = (name: string) =>
      durations
        .filter((d) => d.name === name)
        .map((d) => d.s)
        .join(", ");
    console.info(
      `scale-out: job run times (s): transcribe-visit ${list("transcribe-visit")}; generate-note ${list("generate-note")}`,
    );
    console.info(
      `scale-out: 4 processes ready in ${((ready - started) / 1000).toFixed(1)} s, ${VISITS} visits transcribed in ` +
        `${((transcribedAt - ready) / 1000).toFixed(1)} s, notes done ${((notesAt - killedAt) / 1000).toFixed(1)} s after the kill`,
    );
  }, 300_000);
});
