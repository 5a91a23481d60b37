import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as noteRoute from "#app/routes/resources/api-note.ts";
import * as noteEventsRoute from "#app/routes/resources/api-note-events.ts";
import * as regenerateRoute from "#app/routes/resources/api-note-regenerate.ts";
import * as signRoute from "#app/routes/resources/api-note-sign.ts";
import { startJobs, stopJobs } from "#app/services/jobs/jobs.server.ts";
import { NoteEngineError } from "#app/services/notes/engines/errors.ts";
import { createExtractiveEngine } from "#app/services/notes/engines/extractive/index.ts";
import { handleDeadGenerateNote, handleGenerateNote } from "#app/services/notes/jobs/generate-note.server.ts";
import { createLogger } from "#app/utils/logger.server.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { call, openVisitHarness, seedVisit, type VisitHarness } from "#tests/visits/harness.ts";
import { getRaw, until } from "#tests/visits/pipeline-helpers.ts";
import { acknowledgeAllChecks } from "./checks-harness.ts";
import { generatedNote, patientOf, recordingEngine, requestNote, transcribedVisit } from "./notes-harness.ts";

// Issue 6 "Generation": a pg-boss job per note, with ids only; idempotent (a retried job
// overwrites the same note's draft); progress on the note row, streamed over SSE; failures kept
// with a code the editor translates.

describeEachDatabase("note generation jobs", (target) => {
  let h: VisitHarness;
  const extractive = createExtractiveEngine();

  beforeAll(async () => {
    h = await openVisitHarness(target);
  });

  afterAll(async () => {
    await stopJobs(h.db);
    await h.close();
  });

  const getNote = (noteId: string, as: "clinician" | "owner" = "clinician") =>
    call(h, noteRoute, { method: "GET", path: `/api/notes/${noteId}`, params: { id: noteId }, as });

  const notesOfVisit = async (visitId: string) => {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from public.notes where visit_id = ${visitId}`.execute(
      h.db.kysely,
    );
    return rows[0]?.n ?? -1;
  };

  it("generates a SOAP draft end to end through the pg-boss worker, with evidence at the transcript's times", async () => {
    await startJobs(
      { env: { MURMUR_DATA_DIR: h.dataDir }, db: h.db, logger: createLogger("silent") },
      { generateNote: extractive, pollingIntervalSeconds: 0.5, sweepIntervalMs: 0 },
    );
    try {
      const visitId = await transcribedVisit(h);
      const created = await requestNote(h, visitId, { template_id: "builtin:soap" });
      expect(created.status).toBe(202);
      const noteId = created.body.id;
      await until("note drafted", async () => (await getNote(noteId)).body.status === "draft", 20_000);
      const note = (await getNote(noteId)).body;
      expect(note).toMatchObject({
        id: noteId,
        visit_id: visitId,
        template_id: "builtin:soap",
        language: "en",
        engine: "extractive",
      });
      expect(note.sections.map((s: { key: string }) => s.key)).toContain("plan");
      const sentences = note.sections.flatMap((s: { sentences: unknown[] }) => s.sentences);
      expect(sentences.length).toBeGreaterThan(2);
      const evidence = sentences.flatMap((s: { evidence: { start: number; end: number; quote: string }[] }) => s.evidence);
      expect(evidence.length).toBeGreaterThan(0);
      // Evidence points at the segments' own audio times.
      for (const e of evidence) expect(e.end).toBeLessThanOrEqual(38);
      expect(note.sections.map((s: { text: string }) => s.text).join("\n")).toMatch(/lisinopril/i);
      expect(Array.isArray(note.omissions)).toBe(true);
      expect(note.progress).toBeNull();
      expect(await notesOfVisit(visitId)).toBe(1);
    } finally {
      await stopJobs(h.db);
    }
  }, 30_000);

  it("a retried job overwrites the same note: one note, one draft, whatever the attempts", async () => {
    const visitId = await transcribedVisit(h);
    const created = await requestNote(h, visitId, { template_id: "builtin:soap" });
    const noteId = created.body.id;
    const flaky = recordingEngine(extractive, {
      fail: (n) => (n === 1 ? new NoteEngineError("engine_timeout", "took too long") : null),
    });
    const job = { id: "j1", data: { orgId: h.a.orgId, noteId }, retryCount: 0, retryLimit: 3 };
    await expect(handleGenerateNote(job, { db: h.db, engine: flaky })).rejects.toThrow(/engine_timeout/);
    expect((await getNote(noteId)).body.status).toBe("generating");
    expect(await handleGenerateNote({ ...job, retryCount: 1 }, { db: h.db, engine: flaky })).toBe("generated");
    const first = (await getNote(noteId)).body;
    // A duplicate delivery of the finished job changes nothing.
    expect(await handleGenerateNote({ ...job, retryCount: 2 }, { db: h.db, engine: flaky })).toBe("skipped");
    expect((await getNote(noteId)).body.sections).toEqual(first.sections);
    // Two concurrent deliveries of one round write one draft.
    await sql`update public.notes set status = 'generating' where id = ${noteId}`.execute(h.db.kysely);
    const outcomes = await Promise.all([
      handleGenerateNote(job, { db: h.db, engine: extractive }),
      handleGenerateNote(job, { db: h.db, engine: extractive }),
    ]);
    expect(outcomes.sort()).toEqual(["generated", "stale"]);
    expect(await notesOfVisit(visitId)).toBe(1);
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from public.note_versions where note_id = ${noteId}`.execute(h.db.kysely);
    expect(rows[0]?.n).toBe(0);
  });

  it("answers 409 transcript_required for a visit without a transcript, and creates no note", async () => {
    const visitId = await seedVisit(h);
    const res = await requestNote(h, visitId, { template_id: "builtin:soap" });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("transcript_required");
    expect(await notesOfVisit(visitId)).toBe(0);
  });

  it("an engine that refuses fails the note at once with its code; the last retry and the dead letter fail it too", async () => {
    const refusing = recordingEngine(extractive, { fail: () => new NoteEngineError("engine_rejected", "HTTP 400") });
    const a = (await requestNote(h, await transcribedVisit(h), { template_id: "builtin:soap" })).body.id;
    expect(await handleGenerateNote({ data: { orgId: h.a.orgId, noteId: a } }, { db: h.db, engine: refusing })).toBe("failed");
    expect((await getNote(a)).body).toMatchObject({ status: "failed", failure: { code: "engine_rejected", reason: "HTTP 400" } });

    const busy = recordingEngine(extractive, { fail: () => new NoteEngineError("engine_rate_limited", "HTTP 429") });
    const b = (await requestNote(h, await transcribedVisit(h), { template_id: "builtin:soap" })).body.id;
    const last = { data: { orgId: h.a.orgId, noteId: b }, retryCount: 3, retryLimit: 3 };
    await expect(handleGenerateNote(last, { db: h.db, engine: busy })).rejects.toThrow();
    expect((await getNote(b)).body.failure.code).toBe("engine_rate_limited");

    const c = (await requestNote(h, await transcribedVisit(h), { template_id: "builtin:soap" })).body.id;
    await handleDeadGenerateNote({ data: { orgId: h.a.orgId, noteId: c } }, { db: h.db });
    expect((await getNote(c)).body).toMatchObject({ status: "failed", failure: { code: "generation_failed" } });
  });

  it("regenerates one section in a new round and keeps the others; a stale round writes nothing", async () => {
    const { noteId } = await generatedNote(h, extractive);
    const before = (await getNote(noteId)).body;
    // The clinician's edit of another section survives the regeneration.
    await call(h, noteRoute, {
      method: "PUT",
      path: `/api/notes/${noteId}`,
      params: { id: noteId },
      json: {
        sections: [{ key: "assessment", text: "Acute bronchitis, typed by the clinician." }],
        version: (await getNote(noteId)).body.version,
      },
      as: "clinician",
    });
    await sql`update public.notes set sections = jsonb_set(sections, '{0,text}', '"stale"'::jsonb)
      where id = ${noteId}`.execute(h.db.kysely);
    const res = await call(h, regenerateRoute, {
      method: "POST",
      path: `/api/notes/${noteId}/sections/plan/regenerate`,
      params: { id: noteId, key: "plan" },
      as: "clinician",
    });
    expect(res.status).toBe(202);
    expect((await getNote(noteId)).body.status).toBe("generating");
    const engine = recordingEngine(extractive);
    expect(await handleGenerateNote({ data: { orgId: h.a.orgId, noteId } }, { db: h.db, engine })).toBe("generated");
    expect(engine.inputs[0]?.onlySections).toEqual(["plan"]);
    const after = (await getNote(noteId)).body;
    expect(after.status).toBe("draft");
    const text = (n: typeof after, key: string) => n.sections.find((s: { key: string }) => s.key === key)?.text;
    expect(text(after, "assessment")).toBe("Acute bronchitis, typed by the clinician.");
    expect(text(after, "plan")).toBe(text(before, "plan"));
    expect(after.sections.map((s: { key: string }) => s.key)).toEqual(before.sections.map((s: { key: string }) => s.key));

    const unknown = await call(h, regenerateRoute, {
      method: "POST",
      path: `/api/notes/${noteId}/sections/nope/regenerate`,
      params: { id: noteId, key: "nope" },
      as: "clinician",
    });
    expect(unknown).toMatchObject({ status: 404, body: { code: "section_not_found" } });

    // A job of an older round finds a newer one requested meanwhile and writes nothing.
    await call(h, regenerateRoute, {
      method: "POST",
      path: `/api/notes/${noteId}/sections/plan/regenerate`,
      params: { id: noteId, key: "plan" },
      as: "clinician",
    });
    let release = () => {};
    const held = recordingEngine(extractive, {
      hold: new Promise<void>((r) => {
        release = r;
      }),
    });
    const running = handleGenerateNote({ data: { orgId: h.a.orgId, noteId } }, { db: h.db, engine: held });
    await until("engine called", async () => held.inputs.length === 1);
    await sql`update public.notes set generation = generation + 1 where id = ${noteId}`.execute(h.db.kysely);
    release();
    expect(await running).toBe("stale");
  });

  it("gives the engine the persistent sections of the patient's last signed note", async () => {
    const first = await generatedNote(h, extractive);
    await call(h, noteRoute, {
      method: "PUT",
      path: `/api/notes/${first.noteId}`,
      params: { id: first.noteId },
      json: {
        sections: [{ key: "medications", text: "- Lisinopril 10 mg daily\n- Metformin 500 mg twice daily" }],
        version: (await getNote(first.noteId)).body.version,
      },
      as: "clinician",
    });
    await acknowledgeAllChecks(h, first.noteId);
    expect(
      (
        await call(h, signRoute, {
          method: "POST",
          path: `/api/notes/${first.noteId}/sign`,
          params: { id: first.noteId },
          as: "clinician",
        })
      ).status,
    ).toBe(200);
    const patientId = await patientOf(h, first.visitId);
    const visitId = await transcribedVisit(h, { patientId });
    const engine = recordingEngine(extractive);
    await generatedNote(h, engine, { visitId });
    expect(engine.inputs[0]?.context?.previous).toEqual({
      medications: "- Lisinopril 10 mg daily\n- Metformin 500 mg twice daily",
    });
    // Never the patient's name: a remote engine does not need it.
    expect(JSON.stringify(engine.inputs[0]?.context ?? {})).not.toMatch(/Patient /);
  });

  it("gives the engine the patient's age on the visit's day where the practice is, from the calendar date of birth", async () => {
    const { rows } = await sql<{ id: string }>`
      insert into public.patients (org_id, display_name, date_of_birth) values (${h.a.orgId}, 'Birthday Patient', '1970-03-06')
      returning id`.execute(h.db.kysely);
    const patientId = rows[0]?.id ?? "";
    const ageAt = async (timezone: string, createdAt: string) => {
      await sql`update public.organizations set timezone = ${timezone} where id = ${h.a.orgId}`.execute(h.db.kysely);
      const visitId = await transcribedVisit(h, { patientId });
      await sql`update public.visits set created_at = ${createdAt}::timestamptz where id = ${visitId}`.execute(h.db.kysely);
      const engine = recordingEngine(extractive);
      await generatedNote(h, engine, { visitId });
      return engine.inputs[0]?.context?.patient?.ageYears;
    };
    const { rows: org } = await sql<{
      timezone: string;
    }>`select timezone from public.organizations where id = ${h.a.orgId}`.execute(h.db.kysely);
    const zone = process.env.TZ;
    // The server's own zone must not move the date of birth (the database driver reads a date as local midnight).
    process.env.TZ = "Asia/Tokyo";
    try {
      // 5 March 2024, 23:30 in New York (already the 6th in UTC): the 54th birthday is tomorrow.
      expect(await ageAt("America/New_York", "2024-03-06T04:30:00Z")).toBe(53);
      // 6 March, 00:30 in New York: the birthday.
      expect(await ageAt("America/New_York", "2024-03-06T05:30:00Z")).toBe(54);
      // 6 March, 00:30 in Paris (still the 5th in UTC): the birthday there.
      expect(await ageAt("Europe/Paris", "2024-03-05T23:30:00Z")).toBe(54);
      // 5 March, 23:30 in Paris.
      expect(await ageAt("Europe/Paris", "2024-03-05T22:30:00Z")).toBe(53);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
      await sql`update public.organizations set timezone = ${org[0]?.timezone ?? "UTC"} where id = ${h.a.orgId}`.execute(
        h.db.kysely,
      );
    }
  });

  it("streams progress over SSE while generating, then done with the draft status", async () => {
    const visitId = await transcribedVisit(h);
    const noteId = (await requestNote(h, visitId, { template_id: "builtin:soap" })).body.id;
    let release = () => {};
    const engine = recordingEngine(extractive, {
      hold: new Promise<void>((r) => {
        release = r;
      }),
    });
    const running = handleGenerateNote({ data: { orgId: h.a.orgId, noteId } }, { db: h.db, engine, progressIntervalMs: 0 });
    await until("progress stored", async () => (await getNote(noteId)).body.progress === 0.25);
    const controller = new AbortController();
    const res = await getRaw(h, noteEventsRoute.loader, {
      path: `/api/notes/${noteId}/events`,
      params: { id: noteId },
      as: "clinician",
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
    const reader = res.body?.getReader();
    if (!reader) throw new Error("no body");
    let text = "";
    const decoder = new TextDecoder();
    const readUntil = async (pattern: RegExp) => {
      const deadline = Date.now() + 10_000;
      while (!pattern.test(text) && Date.now() < deadline) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
    };
    await readUntil(/"progress":0.25/);
    expect(text).toMatch(/event: status\ndata: \{"status":"generating","progress":0.25/);
    release();
    await running;
    await readUntil(/event: done/);
    expect(text).toMatch(/event: done\ndata: \{"status":"draft","progress":null,"failure":null\}/);
    controller.abort();

    const staff = await getRaw(h, noteEventsRoute.loader, {
      path: `/api/notes/${noteId}/events`,
      params: { id: noteId },
      as: "staff",
    });
    expect(staff.status).toBe(403);
    const outsider = await getRaw(h, noteEventsRoute.loader, {
      path: `/api/notes/${noteId}/events`,
      params: { id: noteId },
      as: "outsider",
    });
    expect(outsider.status).toBe(404);
  });
});
