import { createHash, randomBytes, randomUUID } from "node:crypto";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { webmChunks } from "#tests/visits/harness.ts";
import { signUpWithPractice } from "./api-client.ts";
import { startFakeEngines, TRANSCRIPT, toneWav } from "./fake-engines.ts";
import { built, freePort, pgliteState, type ServerChild, startServerChild, until } from "./server-child.ts";

// Issue 17 "Chaos": kill -9 of a production server during chunk uploads, during a transcription
// and during a note's generation, on the embedded database and on a server PostgreSQL. After each
// restart the database opens (the server is ready), no acknowledged chunk is lost, and the visit
// has one transcript and one note — not two. The engines are the fake OpenAI-compatible server,
// held so that the kill lands while the job is in the middle of its engine call.

// initdb and every migration on a first start: seconds when idle, minutes on a loaded 2-core machine.
const READY_TIMEOUT_MS = 300_000;
const sha = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");
const serverUrl = process.env.DATABASE_URL;
const CHAOS_SECRET_KEY = randomBytes(32).toString("base64");

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const engines = [
  { name: "pglite", available: true },
  { name: "postgres", available: Boolean(serverUrl) },
] as const;

describe.skipIf(!built)("kill -9 of the server", () => {
  const servers: ServerChild[] = [];
  const cleanups: (() => Promise<void>)[] = [];

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.terminate({ giveUpMs: 5000 })));
    for (const clean of cleanups) await clean().catch(() => {});
  }, 60_000);

  for (const engine of engines) {
    it.skipIf(!engine.available)(
      `[${engine.name}] mid-upload, mid-transcription, mid-note: after each restart 0 acknowledged chunks lost, 0 duplicate transcripts or notes`,
      async () => {
        const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), "murmur-chaos-"));
        cleanups.push(() => fsp.rm(dataDir, { recursive: true, force: true }));
        let databaseUrl = "";
        if (engine.name === "postgres") {
          const dbName = `murmur_chaos_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
          await admin(`create database ${dbName}`);
          cleanups.push(() => admin(`drop database if exists ${dbName} with (force)`));
          const u = new URL(serverUrl ?? "");
          u.pathname = `/${dbName}`;
          databaseUrl = u.toString();
        }
        const fake = await startFakeEngines();
        cleanups.push(async () => {
          await fake.close();
        });
        const port = await freePort();
        const start = async () => {
          const server = await startServerChild({
            dataDir,
            port,
            readyTimeoutMs: READY_TIMEOUT_MS,
            env: {
              // A server PostgreSQL requires a deployment key in production (instances must share it).
              ...(databaseUrl ? { DATABASE_URL: databaseUrl, MURMUR_SECRET_KEY: CHAOS_SECRET_KEY } : {}),
              ASR_ENGINE: "openai-compatible",
              ASR_OPENAI_BASE_URL: fake.url,
              NOTES_ENGINE: "openai-compatible",
              LLM_OPENAI_BASE_URL: `${fake.url}/v1`,
              LLM_OPENAI_MODEL: "fake-model",
            },
          });
          servers.push(server);
          return server;
        };
        const kill9 = async (server: ServerChild) => {
          server.child.kill("SIGKILL");
          const exit = await server.exited;
          expect(exit.signal).toBe("SIGKILL");
          // The kill left the embedded database open: the next start has to recover it.
          if (engine.name === "pglite") expect(pgliteState(dataDir)).toBe("in production");
        };
        // On a server PostgreSQL another instance could be running a job, so only pg-boss's heartbeat
        // (30 s) frees one a dead process held; the test plays that supervisor here, as
        // tests/visits/faults-worker-kill.test.ts does, to keep its wall time short. On PGlite the
        // server itself requeues them at start (app/services/jobs/orphaned-jobs.server.ts).
        const superviseAfterKill = async () => {
          if (!databaseUrl) return;
          const client = new pg.Client({ connectionString: databaseUrl });
          await client.connect();
          try {
            await client.query(
              "update pgboss.job set state = 'retry', retry_count = retry_count + 1, start_after = now() where state = 'active'",
            );
          } finally {
            await client.end();
          }
        };

        let server = await start();
        const api = await signUpWithPractice(server.url, server.output(), "Chaos Practice");
        const patient = await api.call("POST", "/api/patients", { json: { display_name: "Chaos Patient" } });
        const newVisit = async () => {
          const visit = await api.call("POST", "/api/visits", {
            json: { patient_id: patient.body.id, language: "en", consent: true },
          });
          expect(visit.status).toBe(201);
          return visit.body.id as string;
        };

        // 1. Uploads: six chunks acknowledged, three in flight when the server dies.
        const uploadVisit = await newVisit();
        const chunks = webmChunks(12, 64 * 1024);
        const put = (seq: number) =>
          api.call("PUT", `/api/visits/${uploadVisit}/audio/chunks/${seq}`, {
            body: chunks[seq],
            headers: { "x-chunk-sha256": sha(chunks[seq] as Uint8Array), "content-type": "application/octet-stream" },
          });
        const acknowledged = new Set<number>();
        for (let seq = 0; seq < 6; seq += 1) {
          expect((await put(seq)).status).toBe(200);
          acknowledged.add(seq);
        }
        const inFlight = [6, 7, 8].map((seq) =>
          put(seq).then(
            (res) => {
              if (res.status === 200) acknowledged.add(seq);
            },
            () => {},
          ),
        );
        await kill9(server);
        await Promise.all(inFlight);
        server = await start();
        // Every acknowledged chunk is still there with its bytes: resending it is a duplicate.
        for (const seq of acknowledged) {
          const again = await put(seq);
          expect(again.status).toBe(200);
          expect(again.body.duplicate, `acknowledged chunk ${seq}`).toBe(true);
        }
        for (let seq = 0; seq < chunks.length; seq += 1) if (!acknowledged.has(seq)) expect((await put(seq)).status).toBe(200);
        const finished = await api.call("POST", `/api/visits/${uploadVisit}/audio/finish`, {
          json: { chunks: chunks.length, chunk_sha256: chunks.map((c) => sha(c)) },
        });
        expect(finished.status, JSON.stringify(finished.body)).toBe(200);
        expect(finished.body.audio).toMatchObject({ chunk_count: 12, sha256: sha(Buffer.concat(chunks)) });

        // Finishing queued that visit's transcription (its bytes are no real audio): let it end first,
        // so the one job in the engine next is the visit below.
        await until(
          "the uploaded visit's job to end",
          async () => {
            const status = (await api.call("GET", `/api/visits/${uploadVisit}`)).body.status;
            return status === "transcribed" || status === "failed";
          },
          120_000,
        );

        // 2. A transcription in the middle of its engine call.
        const visitId = await newVisit();
        fake.state.asr = "hold";
        const asrBefore = fake.state.asrCalls;
        const uploaded = await api.call("POST", `/api/visits/${visitId}/audio`, {
          body: toneWav(),
          headers: { "content-type": "audio/wav" },
        });
        expect(uploaded.status).toBe(200);
        await until(
          "the transcription to reach the engine",
          async () => {
            if (fake.state.asrCalls <= asrBefore) return false;
            return (await api.call("GET", `/api/visits/${visitId}`)).body.status === "transcribing";
          },
          120_000,
        );
        await kill9(server);
        fake.state.asr = "answer";
        // The note drafted after the transcript waits in the engine until step 3 kills the server.
        fake.state.chat = "hold";
        const chatBefore = fake.state.chatCalls;
        server = await start();
        await superviseAfterKill();
        await until(
          "the visit to be transcribed after the kill",
          async () => (await api.call("GET", `/api/visits/${visitId}`)).body.status === "transcribed",
          120_000,
        );
        const transcribed = (await api.call("GET", `/api/visits/${visitId}`)).body;
        // Version 1: the rerun wrote the transcript once, not a second version beside a first.
        expect(transcribed.transcription).toMatchObject({ version: 1, text: TRANSCRIPT });
        expect(transcribed.failure).toBeNull();

        // 3. A note in the middle of its generation: the one drafted as soon as the transcript was
        // ready (issue 29), held by the engine since the restart above.
        await until(
          "the automatic draft to exist",
          async () => (await api.call("GET", `/api/visits/${visitId}`)).body.note !== null,
          120_000,
        );
        const note = { body: (await api.call("GET", `/api/visits/${visitId}`)).body.note as { id: string } };
        await until("the note to reach the engine", () => fake.state.chatCalls > chatBefore, 120_000);
        await kill9(server);
        fake.state.chat = "answer";
        server = await start();
        await superviseAfterKill();
        await until(
          "the note to be generated after the kill",
          async () => (await api.call("GET", `/api/notes/${note.body.id}`)).body.status === "draft",
          120_000,
        );
        const listed = await api.call("GET", `/api/visits/${visitId}/notes`);
        expect(listed.body.map((n: { id: string }) => n.id)).toEqual([note.body.id]);
        // Still one transcript after everything.
        expect((await api.call("GET", `/api/visits/${visitId}`)).body.transcription.version).toBe(1);

        if (databaseUrl) {
          // Straight from the database: one engine transcript and one note for the visit.
          const client = new pg.Client({ connectionString: databaseUrl });
          await client.connect();
          try {
            const t = await client.query("select count(*)::int as n from public.transcriptions where visit_id = $1", [visitId]);
            const n = await client.query("select count(*)::int as n from public.notes where visit_id = $1", [visitId]);
            expect([t.rows[0]?.n, n.rows[0]?.n]).toEqual([1, 1]);
          } finally {
            await client.end();
          }
        }
        const stop = await server.terminate();
        expect(stop.signal === "SIGTERM" || stop.code === 0).toBe(true);
        if (engine.name === "pglite") expect(pgliteState(dataDir)).toBe("shut down");
      },
      1_200_000,
    );
  }
});
