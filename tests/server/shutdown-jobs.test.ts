import { randomUUID } from "node:crypto";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generatedKeys } from "#tests/e2e/server-process.ts";
import { startFakeEngines, TRANSCRIPT, toneWav } from "./fake-engines.ts";
import { built, freePort, pgliteState, type ServerChild, startServerChild, stoppedOnRequest, until } from "./server-child.ts";

// SIGTERM while a visit is being transcribed, and again while a note is being generated: the
// server exits within its shutdown deadline with the embedded database closed cleanly, and after
// a restart on the same data folder both jobs run again and complete (the visit and the note are
// not failed by the interruption). The engines are OpenAI-compatible servers faked here, so the
// test decides when a job is "in the middle": the fake holds the request until the server gives up.

const SHUTDOWN_TIMEOUT_MS = 5000;
/** How long running jobs may take to finish after the first SIGTERM: the deadline less what is kept to close the database. */
const GRACE_MS = SHUTDOWN_TIMEOUT_MS - Math.min(3000, Math.floor(SHUTDOWN_TIMEOUT_MS / 3));
// Generous: the bound is the configured deadline plus room for a loaded machine, not a benchmark.
const EXIT_BOUND_MS = SHUTDOWN_TIMEOUT_MS + 10_000;
const PASSWORD = "Shutdown-Jobs-2026!";
describe.skipIf(!built)("SIGTERM during jobs", () => {
  let dataDir = "";
  let fake: Awaited<ReturnType<typeof startFakeEngines>> | null = null;
  const servers: ServerChild[] = [];

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.terminate({ giveUpMs: 5000 })));
    await fake?.close();
    if (dataDir) await fsp.rm(dataDir, { recursive: true, force: true });
  }, 30_000);

  it("stops in time mid-transcription and mid-note; after a restart on the same data both jobs complete", async () => {
    dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), "murmur-shutdown-jobs-"));
    const engines = await startFakeEngines();
    fake = engines;
    const port = await freePort();
    const site = `http://127.0.0.1:${port}`;
    const start = async () => {
      const server = await startServerChild({
        dataDir,
        port,
        env: {
          SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
          ASR_ENGINE: "openai-compatible",
          ASR_OPENAI_BASE_URL: engines.url,
          NOTES_ENGINE: "openai-compatible",
          LLM_OPENAI_BASE_URL: `${engines.url}/v1`,
          LLM_OPENAI_MODEL: "fake-model",
        },
      });
      servers.push(server);
      return server;
    };

    const first = await start();
    const keys = generatedKeys(first.output());
    const email = `shutdown-${randomUUID()}@example.test`;
    const created = await fetch(`${site}/auth/v1/admin/users`, {
      method: "POST",
      headers: {
        apikey: keys.serviceRoleKey,
        authorization: `Bearer ${keys.serviceRoleKey}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ email, password: PASSWORD, email_confirm: true }),
    });
    expect(created.status).toBe(200);
    const signIn = await fetch(`${site}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { apikey: keys.anonKey, "content-type": "application/json" },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    const { access_token: token } = (await signIn.json()) as { access_token: string };
    let orgId = "";
    const headers = (extra: Record<string, string> = {}) => ({
      authorization: `Bearer ${token}`,
      ...(orgId ? { "x-org-id": orgId } : {}),
      ...extra,
    });
    // biome-ignore lint/suspicious/noExplicitAny: API answers are read loosely and asserted on.
    const api = async (method: string, url: string, json?: unknown): Promise<{ status: number; body: any }> => {
      const res = await fetch(`${site}${url}`, {
        method,
        headers: headers(json === undefined ? {} : { "content-type": "application/json" }),
        body: json === undefined ? undefined : JSON.stringify(json),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    };
    const org = await api("POST", "/api/orgs", { name: "Shutdown Practice" });
    expect(org.status).toBe(201);
    orgId = org.body.id;
    const patient = await api("POST", "/api/patients", { display_name: "Shutdown Patient" });
    const visit = await api("POST", "/api/visits", { patient_id: patient.body.id, language: "en", consent: true });
    expect(visit.status).toBe(201);
    const visitId: string = visit.body.id;

    // 1. A transcription in the middle: the engine has the audio and has not answered.
    engines.state.asr = "hold";
    const uploaded = await fetch(`${site}/api/visits/${visitId}/audio`, {
      method: "POST",
      headers: headers({ "content-type": "audio/wav" }),
      body: toneWav(),
    });
    expect(uploaded.status).toBe(200);
    await until("the transcription to reach the engine", () => engines.state.asrCalls > 0, 60_000);
    expect((await api("GET", `/api/visits/${visitId}`)).body.status).toBe("transcribing");
    // A browser following the visit keeps an event stream open: it must not hold the shutdown up.
    const events = await fetch(`${site}/api/visits/${visitId}/events`, { headers: headers() });
    expect(events.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const eventsEnded = events.body
      ?.pipeTo(new WritableStream())
      .then(() => "ended")
      .catch(() => "ended");

    const firstStop = await first.terminate();
    expect(stoppedOnRequest(firstStop)).toBe(true);
    expect(firstStop.ms).toBeLessThan(EXIT_BOUND_MS);
    expect(pgliteState(dataDir)).toBe("shut down");
    expect(await eventsEnded).toBe("ended");
    // The engine call was abandoned, and the job handed back to its queue rather than failed.
    await until("the held engine request to be abandoned", () => engines.state.abandoned > 0, 10_000);
    expect(first.output()).toContain("jobs interrupted by the stop are back in their queue");

    // 2. Restart on the same data: the job runs again and the visit is transcribed.
    engines.state.asr = "answer";
    const second = await start();
    await until(
      "the visit to be transcribed after the restart",
      async () => (await api("GET", `/api/visits/${visitId}`)).body.status === "transcribed",
      60_000,
    );
    const transcribed = (await api("GET", `/api/visits/${visitId}`)).body;
    expect(transcribed.failure).toBeNull();
    expect(transcribed.transcription).toMatchObject({ engine: "openai-compatible", text: TRANSCRIPT });

    // 3. A note in the middle of its generation.
    engines.state.chat = "hold";
    const note = await api("POST", `/api/visits/${visitId}/notes`, { template_id: "builtin:soap" });
    expect(note.status).toBe(202);
    const noteId: string = note.body.id;
    await until("the note to reach the engine", () => engines.state.chatCalls > 0, 60_000);
    const abandonedBefore = engines.state.abandoned;
    // Twice: the second SIGTERM skips the jobs' grace period and goes straight to the clean close.
    const secondStop = await second.terminate({ twice: true });
    expect(stoppedOnRequest(secondStop)).toBe(true);
    expect(secondStop.ms).toBeLessThan(EXIT_BOUND_MS);
    expect(pgliteState(dataDir)).toBe("shut down");
    const stopped = second.lines().find((l) => l.msg === "stopped");
    expect(stopped).toMatchObject({ clean: true });
    // Without the second signal the running job alone would have had GRACE_MS.
    expect(stopped?.ms).toBeLessThan(GRACE_MS);
    await until("the held note request to be abandoned", () => engines.state.abandoned > abandonedBefore, 10_000);

    // 4. Restart again: the note is generated, not left failed or generating.
    engines.state.chat = "answer";
    const third = await start();
    await until(
      "the note to be generated after the restart",
      async () => (await api("GET", `/api/notes/${noteId}`)).body.status !== "generating",
      60_000,
    );
    expect((await api("GET", `/api/notes/${noteId}`)).body).toMatchObject({ id: noteId, status: "draft" });
    const thirdStop = await third.terminate();
    expect(stoppedOnRequest(thirdStop)).toBe(true);
    expect(pgliteState(dataDir)).toBe("shut down");
    console.info(
      `exit after SIGTERM: mid-transcription ${firstStop.ms} ms, mid-note with a second SIGTERM ${secondStop.ms} ms, idle ${thirdStop.ms} ms (deadline ${SHUTDOWN_TIMEOUT_MS} ms)`,
    );
  }, 360_000);
});
