import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import * as visitRoute from "#app/routes/resources/api-visit.ts";
import * as audioRoute from "#app/routes/resources/api-visit-audio.ts";
import * as visitsRoute from "#app/routes/resources/api-visits.ts";
import { handleTranscribeVisit } from "#app/services/jobs/transcribe-visit.server.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { call, openVisitHarness, seedPatient, type VisitHarness } from "./harness.ts";
import { fakeEngine, recordingBoss, wavFile } from "./pipeline-helpers.ts";

// Issue 29 "A visit in one tap, ending on a draft": POST /api/visits takes the note's template;
// when the transcription job has written the transcript, the note is drafted with it (organisation
// setting, on by default) without POST /api/visits/:id/notes; GET /api/visits/:id names the note.
describeEachDatabase("auto-drafted notes", (target) => {
  let h: VisitHarness;
  let boss: ReturnType<typeof recordingBoss>;
  let patientId = "";

  beforeAll(async () => {
    h = await openVisitHarness(target);
    patientId = await seedPatient(h);
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(() => {
    boss = recordingBoss(h);
  });
  afterEach(() => {
    boss.stop();
  });

  const deps = () => ({ db: h.db, store: h.store, transcribe: fakeEngine().transcribe });
  const job = (visitId: string) => ({ id: "test", data: { orgId: h.a.orgId, visitId } });
  const notesOf = async (visitId: string) =>
    (
      await sql<{ id: string; template_id: string; status: string; language: string; created_by: string | null }>`
        select id, template_id, status, language, created_by from public.notes where visit_id = ${visitId}`.execute(h.db.kysely)
    ).rows;

  async function startAndUpload(body: Record<string, unknown>): Promise<string> {
    const created = await call(h, visitsRoute, {
      method: "POST",
      path: "/api/visits",
      as: "clinician",
      json: { patient_id: patientId, language: "fr", consent: true, ...body },
    });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    const uploaded = await call(h, audioRoute, {
      method: "POST",
      path: `/api/visits/${id}/audio`,
      params: { id },
      as: "clinician",
      body: wavFile(8000),
      headers: { "content-type": "audio/wav" },
    });
    expect(uploaded.status).toBe(200);
    return id;
  }
  const getVisit = (id: string, as: "clinician" | "staff" = "clinician") =>
    call(h, visitRoute, { method: "GET", path: `/api/visits/${id}`, params: { id }, as });

  it("drafts the note with the chosen template once the transcript is written, once, and GET names it", async () => {
    const id = await startAndUpload({ template_id: "builtin:dental_exam" });
    expect((await getVisit(id)).body).toMatchObject({ note: null });
    expect(await handleTranscribeVisit(job(id), deps())).toBe("transcribed");
    const notes = await notesOf(id);
    expect(notes).toEqual([
      {
        id: expect.any(String),
        template_id: "builtin:dental_exam",
        status: "generating",
        language: "fr",
        created_by: h.a.users.clinician.id,
      },
    ]);
    const noteId = notes[0]?.id;
    expect(boss.sent).toContainEqual({ queue: "generate-note", data: { orgId: h.a.orgId, noteId }, key: noteId });
    expect((await getVisit(id)).body).toMatchObject({ note: { id: noteId, status: "generating" } });
    // Staff may not read notes.
    expect((await getVisit(id, "staff")).body).toMatchObject({ note: null });
    // A retried job (the worker presumed dead) drafts nothing more.
    expect(await handleTranscribeVisit(job(id), deps())).toBe("already_transcribed");
    expect(await notesOf(id)).toHaveLength(1);
    const audit = await sql<{ details: { auto: boolean; note_id: string } }>`
      select details from public.audit_log where entity_id = ${id} and action = 'note.generate'`.execute(h.db.kysely);
    expect(audit.rows.map((r) => r.details)).toEqual([expect.objectContaining({ auto: true, note_id: noteId })]);
  });

  it("uses the built-in SOAP note when the visit named no template", async () => {
    const id = await startAndUpload({});
    expect(await handleTranscribeVisit(job(id), deps())).toBe("transcribed");
    expect((await notesOf(id)).map((n) => n.template_id)).toEqual(["builtin:soap"]);
  });

  it("drafts nothing when the organisation turned auto-draft off", async () => {
    await sql`update public.organizations set settings = settings || '{"auto_draft": false}'::jsonb where id = ${h.a.orgId}`.execute(
      h.db.kysely,
    );
    try {
      const id = await startAndUpload({});
      expect(await handleTranscribeVisit(job(id), deps())).toBe("transcribed");
      expect(await notesOf(id)).toEqual([]);
      expect((await getVisit(id)).body).toMatchObject({ note: null });
    } finally {
      await sql`update public.organizations set settings = settings - 'auto_draft' where id = ${h.a.orgId}`.execute(h.db.kysely);
    }
  });

  it("refuses a template the caller cannot use, before any visit exists", async () => {
    const before = await sql<{ n: number }>`select count(*)::int as n from public.visits where patient_id = ${patientId}`.execute(
      h.db.kysely,
    );
    for (const template_id of ["builtin:nope", "00000000-0000-4000-8000-000000000000"]) {
      const res = await call(h, visitsRoute, {
        method: "POST",
        path: "/api/visits",
        as: "clinician",
        json: { patient_id: patientId, language: "en", consent: true, template_id },
      });
      expect(res.status, template_id).toBe(404);
      expect(res.body).toMatchObject({ code: "template_not_found" });
    }
    const after = await sql<{ n: number }>`select count(*)::int as n from public.visits where patient_id = ${patientId}`.execute(
      h.db.kysely,
    );
    expect(after.rows[0]?.n).toBe(before.rows[0]?.n);
  });
});
