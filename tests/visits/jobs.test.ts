import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as visitRoute from "#app/routes/resources/api-visit.ts";
import * as chunkRoute from "#app/routes/resources/api-visit-audio-chunk.ts";
import * as finishRoute from "#app/routes/resources/api-visit-audio-finish.ts";
import { enqueueTranscribeVisit } from "#app/services/jobs/enqueue.server.ts";
import { type JobsHandle, startJobs, stopJobs } from "#app/services/jobs/jobs.server.ts";
import { TRANSCRIBE_VISIT_QUEUE } from "#app/services/jobs/queues.ts";
import {
  handleDeadTranscribeVisit,
  handleTranscribeVisit,
  type TranscribePort,
} from "#app/services/jobs/transcribe-visit.server.ts";
import { createLogger } from "#app/utils/logger.server.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { call, openVisitHarness, seedVisit, sha256, type VisitHarness, webmChunks } from "./harness.ts";

// Issue 5 "Pipeline": jobs carry ids only and are idempotent — a duplicate enqueue is one job, a
// retried or concurrent handler writes one transcript; failures leave a clear failed state.

/** A stand-in engine that records its calls; each transcript names the audio it was given. */
function fakeEngine(behaviour: (call: number) => "ok" | Error = () => "ok") {
  const calls: { path: string; language: string; orgId?: string }[] = [];
  const transcribe: TranscribePort = async (path, language, options) => {
    calls.push({ path, language, orgId: options.orgId });
    const outcome = behaviour(calls.length);
    if (outcome instanceof Error) throw outcome;
    return {
      text: `transcript ${calls.length}`,
      segments: [
        { start: 0, end: 1.5, text: "transcript" },
        { start: 1.5, end: 2.25, text: String(calls.length) },
      ],
      engine: "fake",
      model: "fake-1",
    };
  };
  return { transcribe, calls };
}

function codedError(code: string, retryable: boolean): Error {
  return Object.assign(new Error(`${code}: boom`), { code, reason: "the engine said no", retryable });
}

describeEachDatabase("transcription jobs", (target) => {
  let h: VisitHarness;
  let jobs: JobsHandle;

  beforeAll(async () => {
    h = await openVisitHarness(target);
    // Queues only: the handler is called directly here, except in the end-to-end case below.
    jobs = await startJobs({ env: { MURMUR_DATA_DIR: h.dataDir }, db: h.db, logger: createLogger("silent") });
  });

  afterAll(async () => {
    await stopJobs(h.db);
    await h.close();
  });

  /** A visit whose three chunks are uploaded and finished (status uploaded). */
  async function uploadedVisit(language: "en" | "fr" = "en"): Promise<string> {
    const id = await seedVisit(h, { language });
    for (const [seq, data] of webmChunks(3, 512).entries()) {
      await call(h, chunkRoute, {
        method: "PUT",
        path: `/api/visits/${id}/audio/chunks/${seq}`,
        params: { id, seq: String(seq) },
        body: data,
        headers: { "x-chunk-sha256": sha256(data) },
      });
    }
    const done = await call(h, finishRoute, {
      method: "POST",
      path: `/api/visits/${id}/audio/finish`,
      params: { id },
      json: { chunks: 3 },
    });
    expect(done.body.status).toBe("uploaded");
    return id;
  }

  const deps = (transcribe: TranscribePort) => ({ db: h.db, store: h.store, transcribe });
  const jobFor = (visitId: string, extra: { retryCount?: number; retryLimit?: number } = {}) => ({
    id: "test",
    data: { orgId: h.a.orgId, visitId },
    ...extra,
  });
  const visitState = async (id: string) =>
    (
      await sql<{ status: string; failure_code: string | null; failure_reason: string | null }>`
        select status, failure_code, failure_reason from public.visits where id = ${id}`.execute(h.db.kysely)
    ).rows[0];
  const engineTranscripts = async (id: string) =>
    (
      await sql<{ version: number; text: string; audio_sha256: string }>`
        select version, text, audio_sha256 from public.transcriptions where visit_id = ${id} and source = 'engine'`.execute(
        h.db.kysely,
      )
    ).rows;

  it("finishing an upload queues one job carrying only the organisation and visit ids; enqueuing again adds none", async () => {
    const id = await uploadedVisit();
    const again = await enqueueTranscribeVisit(h.db, { orgId: h.a.orgId, visitId: id });
    expect(again).toEqual({ queued: true, jobId: null });
    const third = await call(h, finishRoute, {
      method: "POST",
      path: `/api/visits/${id}/audio/finish`,
      params: { id },
      json: { chunks: 3 },
    });
    expect(third.body.status).toBe("uploaded");
    const found = await jobs.boss.findJobs<{ orgId: string; visitId: string }>(TRANSCRIBE_VISIT_QUEUE, { key: id });
    expect(found.map((j) => j.data)).toEqual([{ orgId: h.a.orgId, visitId: id }]);
  });

  it("the handler run twice (a retry after success) writes one transcript and calls the engine once", async () => {
    const id = await uploadedVisit("fr");
    const engine = fakeEngine();
    expect(await handleTranscribeVisit(jobFor(id), deps(engine.transcribe))).toBe("transcribed");
    expect(await handleTranscribeVisit(jobFor(id), deps(engine.transcribe))).toBe("already_transcribed");
    expect(engine.calls).toHaveLength(1);
    expect(engine.calls[0]?.language).toBe("fr");
    // The port is told the visit's organisation: its vocabulary, nobody else's (ADR 0032).
    expect(engine.calls[0]?.orgId).toBe(h.a.orgId);
    expect(await engineTranscripts(id)).toEqual([{ version: 1, text: "transcript 1", audio_sha256: expect.any(String) }]);
    expect((await visitState(id))?.status).toBe("transcribed");
    const visit = await call(h, visitRoute, { method: "GET", path: `/api/visits/${id}`, params: { id } });
    expect(visit.body.transcription).toEqual({
      version: 1,
      status: "completed",
      engine: "fake",
      language: "fr",
      text: "transcript 1",
      segments: [
        { start: 0, end: 1.5, text: "transcript", speaker: null },
        { start: 1.5, end: 2.25, text: "1", speaker: null },
      ],
      // Issue 27: an engine that gave no word confidence is trusted a little less.
      quality: { tier: "good", score: 0.9, reasons: ["no_confidence"] },
    });
    expect(visit.body.transcription.text).not.toBe("");
    const audit =
      await sql`select actor_id from public.audit_log where entity_id = ${id} and action = 'visit.transcribed'`.execute(
        h.db.kysely,
      );
    expect(audit.rows).toEqual([{ actor_id: null }]);
  });

  it("two handlers of one visit at once (a worker presumed dead, then back) still leave one transcript", async () => {
    const id = await uploadedVisit();
    const engine = fakeEngine();
    const outcomes = await Promise.all([
      handleTranscribeVisit(jobFor(id), deps(engine.transcribe)),
      handleTranscribeVisit(jobFor(id), deps(engine.transcribe)),
    ]);
    // Both may reach the engine; only one transcript is written, the other run sees it.
    expect(outcomes.sort()).toEqual(["already_transcribed", "transcribed"]);
    expect(await engineTranscripts(id)).toHaveLength(1);
  });

  it("an error the engine says is final fails the visit at once with its code and reason", async () => {
    const id = await uploadedVisit();
    const engine = fakeEngine(() => codedError("audio_unreadable", false));
    expect(await handleTranscribeVisit(jobFor(id), deps(engine.transcribe))).toBe("failed");
    expect(await visitState(id)).toEqual({
      status: "failed",
      failure_code: "audio_unreadable",
      failure_reason: "the engine said no",
    });
    const visit = await call(h, visitRoute, { method: "GET", path: `/api/visits/${id}`, params: { id } });
    expect(visit.body.failure).toEqual({ code: "audio_unreadable", reason: "the engine said no" });
    expect(await engineTranscripts(id)).toEqual([]);
  });

  it("a retryable error is thrown for pg-boss to retry; on the last attempt the visit is failed too", async () => {
    const id = await uploadedVisit();
    const engine = fakeEngine(() => codedError("engine_timeout", true));
    await expect(handleTranscribeVisit(jobFor(id, { retryCount: 0, retryLimit: 4 }), deps(engine.transcribe))).rejects.toThrow(
      "engine_timeout",
    );
    expect((await visitState(id))?.status).toBe("transcribing");
    await expect(handleTranscribeVisit(jobFor(id, { retryCount: 4, retryLimit: 4 }), deps(engine.transcribe))).rejects.toThrow(
      "engine_timeout",
    );
    expect(await visitState(id)).toMatchObject({ status: "failed", failure_code: "engine_timeout" });
    // A later success (a re-run) still transcribes it.
    expect(await handleTranscribeVisit(jobFor(id), deps(fakeEngine().transcribe))).toBe("transcribed");
  });

  it("the dead-letter handler fails a visit left transcribing", async () => {
    const id = await uploadedVisit();
    await sql`update public.visits set status = 'transcribing' where id = ${id}`.execute(h.db.kysely);
    await handleDeadTranscribeVisit(jobFor(id), { db: h.db });
    expect(await visitState(id)).toMatchObject({ status: "failed", failure_code: "transcription_failed" });
  });

  it("a job for a deleted visit, a visit without audio or a foreign organisation does nothing", async () => {
    const engine = fakeEngine();
    const draft = await seedVisit(h);
    expect(await handleTranscribeVisit(jobFor(draft), deps(engine.transcribe))).toBe("no_audio");
    const id = await uploadedVisit();
    const wrongOrg = { id: "x", data: { orgId: h.b.orgId, visitId: id } };
    expect(await handleTranscribeVisit(wrongOrg, deps(engine.transcribe))).toBe("missing");
    expect(await handleTranscribeVisit({ id: "x", data: { visitId: id } }, deps(engine.transcribe))).toBe("skipped");
    await call(h, visitRoute, { method: "DELETE", path: `/api/visits/${id}`, params: { id } });
    expect(await handleTranscribeVisit(jobFor(id), deps(engine.transcribe))).toBe("missing");
    expect(engine.calls).toEqual([]);
  });

  it("audio missing from storage fails the visit with audio_missing instead of retrying for ever", async () => {
    const id = await uploadedVisit();
    const { rows } = await sql<{ audio_key: string }>`select audio_key from public.visits where id = ${id}`.execute(h.db.kysely);
    await h.store.delete(rows[0]?.audio_key ?? "");
    const engine = fakeEngine();
    expect(await handleTranscribeVisit(jobFor(id), deps(engine.transcribe))).toBe("failed");
    expect(await visitState(id)).toMatchObject({ status: "failed", failure_code: "audio_missing" });
    expect(engine.calls).toEqual([]);
  });

  it("when the audio changes while the engine runs, the old result is dropped", async () => {
    const id = await uploadedVisit();
    const transcribe: TranscribePort = async (path, language, options) => {
      await sql`update public.visits set audio_sha256 = ${"f".repeat(64)} where id = ${id}`.execute(h.db.kysely);
      return fakeEngine().transcribe(path, language, options);
    };
    expect(await handleTranscribeVisit(jobFor(id), deps(transcribe))).toBe("stale");
    expect(await engineTranscripts(id)).toEqual([]);
  });

  it("end to end: a running worker transcribes an uploaded visit; a restart's sweep re-queues one left uploaded", async () => {
    // Earlier cases left visits `uploaded` on purpose; only the two below are swept or queued.
    await sql`update public.visits set status = 'failed' where org_id = ${h.a.orgId} and status = 'uploaded'`.execute(
      h.db.kysely,
    );
    // An upload that committed while no job runner existed (a crash before the enqueue).
    await stopJobs(h.db);
    const orphan = await uploadedVisit();
    await sql`update public.visits set uploaded_at = now() - interval '2 minutes' where id = ${orphan}`.execute(h.db.kysely);
    const engine = fakeEngine();
    jobs = await startJobs(
      { env: { MURMUR_DATA_DIR: h.dataDir }, db: h.db, logger: createLogger("silent") },
      { transcribe: engine.transcribe, store: h.store, pollingIntervalSeconds: 0.5 },
    );
    const fresh = await uploadedVisit();
    const deadline = Date.now() + 25_000;
    while (Date.now() < deadline) {
      const states = await Promise.all([visitState(orphan), visitState(fresh)]);
      if (states.every((s) => s?.status === "transcribed")) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect((await visitState(orphan))?.status).toBe("transcribed");
    expect((await visitState(fresh))?.status).toBe("transcribed");
    expect(await engineTranscripts(orphan)).toHaveLength(1);
    expect(await engineTranscripts(fresh)).toHaveLength(1);
    for (const id of [orphan, fresh]) expect(engine.calls.filter((c) => c.path.includes(id))).toHaveLength(1);
  });
});
