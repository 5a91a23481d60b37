import { spawn } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sha256, webmChunks } from "#tests/visits/harness.ts";
import { type ApiClient, signUpWithPractice } from "./api-client.ts";
import { startFakeEngines, TRANSCRIPT, toneWav } from "./fake-engines.ts";
import { built, freePort, ROOT, type ServerChild, startServerChild, until } from "./server-child.ts";

// Issue 17 "Data safety": `npm run backup` of a running production server on the embedded database
// while recordings upload chunks, visits are transcribed and notes signed through the real API;
// `npm run restore` into an empty folder; a server started on it holds every chunk, transcript and
// signed note acknowledged before the backup began. The engines are the fake OpenAI-compatible
// server (fake-engines.ts) so the load is the app's own work, not a model's.

const RECORDINGS = 2;
// initdb and every migration on a first start: seconds when idle, minutes on a loaded 2-core machine.
const READY_TIMEOUT_MS = 300_000;
const CHUNK_BYTES = 8 * 1024;

interface AckedChunk {
  visitId: string;
  seq: number;
  bytes: Uint8Array;
  at: number;
}

/** `node scripts/<name>.ts` as an operator runs it; its last stdout line is its JSON summary. */
function runScript(name: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`scripts/${name}.ts`, ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: "", S3_BUCKET: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stderr.on("data", (d) => {
      out += d;
    });
    child.on("exit", (code) => resolve({ code, out }));
  });
}

describe.skipIf(!built)("backup of a running server under write load", () => {
  const servers: ServerChild[] = [];
  const dirs: string[] = [];
  let fake: Awaited<ReturnType<typeof startFakeEngines>> | null = null;

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.terminate({ giveUpMs: 5000 })));
    await fake?.close();
    for (const d of dirs) await fsp.rm(d, { recursive: true, force: true });
  }, 30_000);

  it("restores every chunk, transcript and signed note acknowledged before the backup began", async () => {
    const work = await fsp.mkdtemp(path.join(os.tmpdir(), "murmur-backup-load-"));
    dirs.push(work);
    const dataDir = path.join(work, "data");
    const engines = await startFakeEngines();
    fake = engines;
    const engineEnv = {
      ASR_ENGINE: "openai-compatible",
      ASR_OPENAI_BASE_URL: engines.url,
      NOTES_ENGINE: "openai-compatible",
      LLM_OPENAI_BASE_URL: `${engines.url}/v1`,
      LLM_OPENAI_MODEL: "fake-model",
    };
    // The restored server takes the same address: access tokens name their issuer (SITE_URL).
    const port = await freePort();
    const first = await startServerChild({ dataDir, port, env: engineEnv, readyTimeoutMs: READY_TIMEOUT_MS });
    servers.push(first);
    const api = await signUpWithPractice(first.url, first.output(), "Backup Practice");
    const patient = await api.call("POST", "/api/patients", { json: { display_name: "Backup Patient" } });
    expect(patient.status).toBe(201);
    const newVisit = async () => {
      const visit = await api.call("POST", "/api/visits", {
        json: { patient_id: patient.body.id, language: "en", consent: true },
      });
      expect(visit.status).toBe(201);
      return visit.body.id as string;
    };

    const chunks: AckedChunk[] = [];
    const transcripts: { visitId: string; at: number }[] = [];
    const notes: { noteId: string; signedAt: string; at: number }[] = [];
    let running = true;

    // Recordings: chunk after chunk, as the recorder uploads them.
    const recording = async () => {
      const visitId = await newVisit();
      const data = webmChunks(2000, CHUNK_BYTES);
      for (let seq = 0; running && seq < data.length; seq += 1) {
        const bytes = data[seq] as Uint8Array;
        const put = await api.call("PUT", `/api/visits/${visitId}/audio/chunks/${seq}`, {
          body: bytes,
          headers: { "x-chunk-sha256": sha256(bytes), "content-type": "application/octet-stream" },
        });
        expect(put.status, JSON.stringify(put.body)).toBe(200);
        chunks.push({ visitId, seq, bytes, at: Date.now() });
      }
    };
    // Visits uploaded whole, transcribed, then a note drafted and signed.
    const poll = async <T>(probe: () => Promise<T | null>): Promise<T> => {
      for (;;) {
        const value = await probe();
        if (value !== null) return value;
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    const clinic = async () => {
      while (running) {
        const visitId = await newVisit();
        const uploaded = await api.call("POST", `/api/visits/${visitId}/audio`, {
          body: toneWav(),
          headers: { "content-type": "audio/wav" },
        });
        expect(uploaded.status).toBe(200);
        await poll(async () => {
          const v = await api.call("GET", `/api/visits/${visitId}`);
          if (v.body.status === "failed") throw new Error(`transcription failed: ${JSON.stringify(v.body.failure)}`);
          return v.body.status === "transcribed" && v.body.transcription?.text === TRANSCRIPT ? true : null;
        });
        transcripts.push({ visitId, at: Date.now() });
        const note = await api.call("POST", `/api/visits/${visitId}/notes`, { json: { template_id: "builtin:soap" } });
        expect(note.status).toBe(202);
        await poll(async () => ((await api.call("GET", `/api/notes/${note.body.id}`)).body.status === "draft" ? true : null));
        // Issue 27's sign gate: every open check acknowledged first, as a clinician would.
        const draft = await api.call("GET", `/api/notes/${note.body.id}`);
        for (const check of draft.body.checks.filter((c: { status: string }) => c.status === "open"))
          await api.call("POST", `/api/notes/${note.body.id}/checks/${check.id}`, { json: { action: "acknowledge" } });
        const signed = await api.call("POST", `/api/notes/${note.body.id}/sign`);
        expect(signed.status, JSON.stringify(signed.body)).toBe(200);
        notes.push({ noteId: note.body.id, signedAt: signed.body.signed_at, at: Date.now() });
      }
    };
    const load = Promise.all([...Array.from({ length: RECORDINGS }, recording), clinic()]);
    const loadFailed = load.then(
      () => null,
      (error: unknown) => error,
    );

    // Some of everything acknowledged before the backup starts (generous: a busy machine is slow).
    await until("acknowledged chunks, transcripts and signed notes", () => chunks.length >= 20 && notes.length >= 1, 240_000);
    const backupStarted = Date.now();
    const before = {
      chunks: chunks.filter((c) => c.at < backupStarted),
      transcripts: transcripts.filter((t) => t.at < backupStarted),
      notes: notes.filter((n) => n.at < backupStarted),
    };
    const archive = path.join(work, "murmur.tar.gz");
    const backup = await runScript("backup", ["--out", archive], { MURMUR_DATA_DIR: dataDir });
    expect(backup.code, backup.out).toBe(0);
    const summary = JSON.parse(backup.out.trim().split("\n").at(-1) ?? "{}");
    // The running server staged the copy (the socket), not a copy of files under a live database.
    expect(summary).toMatchObject({ event: "backup_written", mode: "online" });
    const ackedDuringBackup = chunks.length - before.chunks.length;
    running = false;
    expect(await loadFailed).toBeNull();
    await first.terminate();

    const restoredDir = path.join(work, "restored");
    const restore = await runScript("restore", ["--in", archive], { MURMUR_DATA_DIR: restoredDir });
    expect(restore.code, restore.out).toBe(0);
    // The same port as the first server: SITE_URL is the token issuer, and a session issued by
    // http://127.0.0.1:<other port> is rightly refused (401) by a server at another address — this
    // test answered 401 after the restore for that reason alone, not because data was missing.
    const second = await startServerChild({
      dataDir: restoredDir,
      port,
      env: engineEnv,
      readyTimeoutMs: READY_TIMEOUT_MS,
    });
    servers.push(second);
    const restored: ApiClient = api.at(second.url);

    // Chunks: the server already holds each one with the same bytes (a resend is a duplicate),
    // and the blob file in the restored folder is those bytes.
    for (const c of before.chunks) {
      const put = await restored.call("PUT", `/api/visits/${c.visitId}/audio/chunks/${c.seq}`, {
        body: c.bytes,
        headers: { "x-chunk-sha256": sha256(c.bytes), "content-type": "application/octet-stream" },
      });
      expect(put.status).toBe(200);
      expect(put.body.duplicate, `chunk ${c.seq} of ${c.visitId}`).toBe(true);
    }
    const blob = path.join(restoredDir, "blobs", "orgs", api.orgId, "visits", before.chunks[0]?.visitId ?? "", "chunks", "0");
    expect(sha256(fs.readFileSync(blob))).toBe(sha256(before.chunks.find((c) => c.seq === 0)?.bytes ?? new Uint8Array()));
    for (const t of before.transcripts) {
      const v = await restored.call("GET", `/api/visits/${t.visitId}`);
      expect(v.body).toMatchObject({ status: "transcribed", transcription: { text: TRANSCRIPT } });
    }
    for (const n of before.notes) {
      const note = await restored.call("GET", `/api/notes/${n.noteId}`);
      expect(note.body).toMatchObject({ id: n.noteId, status: "signed", signed_at: n.signedAt });
    }
    console.info(
      `backup under load: acknowledged before it began ${before.chunks.length} chunks, ${before.transcripts.length} transcripts, ` +
        `${before.notes.length} signed notes — all restored; ${ackedDuringBackup} chunks acknowledged while it ran; ` +
        `database held ${summary.heldMs} ms; archive ${summary.bytes} bytes, ${summary.files} files`,
    );
  }, 1_200_000);
});
