import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as patientsRoute from "#app/routes/resources/api-patients.ts";
import * as visitRoute from "#app/routes/resources/api-visit.ts";
import * as chunkRoute from "#app/routes/resources/api-visit-audio-chunk.ts";
import * as finishRoute from "#app/routes/resources/api-visit-audio-finish.ts";
import * as transcriptRoute from "#app/routes/resources/api-visit-transcript.ts";
import * as visitsRoute from "#app/routes/resources/api-visits.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { call, openVisitHarness, sha256, type VisitHarness, webmChunks } from "./harness.ts";

// Issue 5 "API": patients (create, search), visits (consent, list, read, delete with their audio)
// and transcript imports as versions.
describeEachDatabase("patients and visits API", (target) => {
  let h: VisitHarness;

  beforeAll(async () => {
    h = await openVisitHarness(target);
  });

  afterAll(async () => {
    await h.close();
  });

  const createPatient = async (body: Record<string, unknown>, as: "owner" | "staff" | "clinician" = "owner") =>
    call(h, patientsRoute, { method: "POST", path: "/api/patients", json: body, as });
  const createVisit = (body: Record<string, unknown>, as: "owner" | "staff" | "clinician" = "owner") =>
    call(h, visitsRoute, { method: "POST", path: "/api/visits", json: body, as });
  const getVisit = (id: string) => call(h, visitRoute, { method: "GET", path: `/api/visits/${id}`, params: { id } });
  const auditOf = async (entityId: string) =>
    (
      await sql<{ action: string; actor_id: string | null; details: Record<string, unknown> }>`
        select action, actor_id, details from public.audit_log where entity_id = ${entityId} order by id`.execute(h.db.kysely)
    ).rows;

  it("creates a patient (201 { id }) and finds it by any part of the name or by its exact external id", async () => {
    const created = await createPatient({
      display_name: "  María-José Núñez ",
      date_of_birth: "1984-02-29",
      sex: "female",
      external_id: "PMS-4411",
      notes: "Allergic to penicillin",
    });
    expect(created).toEqual({ status: 201, body: { id: expect.any(String) } });
    await createPatient({ display_name: "José Pérez" });
    const expectOne = {
      id: created.body.id,
      display_name: "María-José Núñez",
      date_of_birth: "1984-02-29",
      sex: "female",
      external_id: "PMS-4411",
      created_at: expect.any(String),
    };
    const search = (q: string) => call(h, patientsRoute, { method: "GET", path: `/api/patients?q=${encodeURIComponent(q)}` });
    expect((await search("núñez")).body).toEqual([expectOne]);
    expect((await search("pms-4411")).body).toEqual([expectOne]);
    // Prefix matches come first.
    expect((await search("jos")).body.map((p: { display_name: string }) => p.display_name)).toEqual([
      "José Pérez",
      "María-José Núñez",
    ]);
    expect((await search("%")).body).toEqual([]);
    expect(await auditOf(created.body.id)).toEqual([{ action: "patient.created", actor_id: h.a.users.owner.id, details: {} }]);
  });

  it("refuses a second patient with the same external id (409) and bad patient bodies (400)", async () => {
    expect((await createPatient({ display_name: "A", external_id: "DUP-1" })).status).toBe(201);
    expect((await createPatient({ display_name: "B", external_id: "DUP-1" })).body.code).toBe("patient_external_id_taken");
    expect((await createPatient({ display_name: " " })).body.code).toBe("validation_failed");
    expect((await createPatient({ display_name: "C", date_of_birth: "1990-13-01" })).body.code).toBe("validation_failed");
    expect((await createPatient({ display_name: "C", sex: "x" })).body.code).toBe("validation_failed");
    expect((await createPatient({ display_name: "C", org_id: h.b.orgId })).body.code).toBe("validation_failed");
    // PostgreSQL text cannot hold NUL, nor jsonb an unpaired surrogate: a 400, not a database error.
    expect((await createPatient({ display_name: "Nul\u0000Name" })).body.code).toBe("invalid_text");
    expect((await createPatient({ display_name: "Lone \ud800" })).body.code).toBe("invalid_text");
    expect((await createPatient({ display_name: "Tab\there" })).body.code).toBe("invalid_text");
    const bad = await call(h, patientsRoute, { method: "POST", path: "/api/patients", json: "{" });
    expect(bad).toMatchObject({ status: 400, body: { code: "bad_json" } });
    const longQuery = await call(h, patientsRoute, { method: "GET", path: `/api/patients?q=${"a".repeat(201)}` });
    expect(longQuery.body.code).toBe("validation_failed");
  });

  it("a visit needs consent: without consent: true it is 400 consent_required and nothing is created", async () => {
    const patient = (await createPatient({ display_name: "Consent Case" })).body.id;
    for (const consent of [undefined, false]) {
      const res = await createVisit({ patient_id: patient, title: "Visit", language: "en", consent });
      expect(res).toMatchObject({ status: 400, body: { code: "consent_required" } });
    }
    const { rows } = await sql`select 1 from public.visits where patient_id = ${patient}`.execute(h.db.kysely);
    expect(rows).toEqual([]);
  });

  it("creates a visit with consent recorded by whom and when, audited, and reads it back", async () => {
    const patient = (await createPatient({ display_name: "Lucía Gómez", date_of_birth: "2001-07-04" })).body.id;
    const before = Date.now();
    const created = await createVisit({ patient_id: patient, title: "Cleaning", language: "es", consent: true }, "staff");
    expect(created).toEqual({ status: 201, body: { id: expect.any(String) } });
    const visit = await getVisit(created.body.id);
    expect(visit.body).toMatchObject({
      id: created.body.id,
      status: "draft",
      language: "es",
      title: "Cleaning",
      patient: { id: patient, display_name: "Lucía Gómez", date_of_birth: "2001-07-04" },
      consent_by: h.a.users.staff.id,
      // Staff are not clinicians: nobody is named until one is.
      clinician_id: null,
      audio: { chunk_count: 0, bytes: 0, duration_ms: null, sha256: null },
      transcription: null,
      failure: null,
    });
    expect(Date.parse(visit.body.consent_at)).toBeGreaterThanOrEqual(before - 1000);
    expect((await auditOf(created.body.id)).map((e) => [e.action, e.actor_id])).toEqual([
      ["visit.created", h.a.users.staff.id],
      ["visit.consent_recorded", h.a.users.staff.id],
      // Reading a visit is audited too (issue 17): the GET above, by the owner.
      ["visit.read", h.a.users.owner.id],
    ]);
    const byClinician = await createVisit({ patient_id: patient, language: "fr", consent: true }, "clinician");
    expect((await getVisit(byClinician.body.id)).body.clinician_id).toBe(h.a.users.clinician.id);
  });

  it("names a clinician only among the organisation's owners and clinicians", async () => {
    const patient = (await createPatient({ display_name: "Named Clinician" })).body.id;
    const ok = await createVisit(
      { patient_id: patient, language: "en", consent: true, clinician_id: h.a.users.clinician.id },
      "staff",
    );
    expect((await getVisit(ok.body.id)).body.clinician_id).toBe(h.a.users.clinician.id);
    for (const clinician of [h.a.users.staff.id, h.b.owner.id, "nope"]) {
      const res = await createVisit({ patient_id: patient, language: "en", consent: true, clinician_id: clinician });
      expect(res).toMatchObject({ status: 404, body: { code: "clinician_not_found" } });
    }
  });

  it("lists visits newest first, filtered by patient and status; bad filters are 400, unknown patients 404", async () => {
    const p1 = (await createPatient({ display_name: "List One" })).body.id;
    const p2 = (await createPatient({ display_name: "List Two" })).body.id;
    const v1 = (await createVisit({ patient_id: p1, title: "first", language: "en", consent: true })).body.id;
    const v2 = (await createVisit({ patient_id: p1, title: "second", language: "en", consent: true })).body.id;
    await createVisit({ patient_id: p2, title: "other", language: "en", consent: true });
    await sql`update public.visits set status = 'failed' where id = ${v1}`.execute(h.db.kysely);
    const list = (q: string) => call(h, visitsRoute, { method: "GET", path: `/api/visits?${q}` });
    const mine = await list(`patient_id=${p1}`);
    expect(mine.body.map((v: { id: string }) => v.id)).toEqual([v2, v1]);
    expect(mine.body[0]).toMatchObject({ patient_id: p1, patient_name: "List One", title: "second", status: "draft" });
    expect((await list(`patient_id=${p1}&status=failed`)).body.map((v: { id: string }) => v.id)).toEqual([v1]);
    expect((await list("status=lost")).body.code).toBe("validation_failed");
    expect((await list("patient_id=nope")).body.code).toBe("patient_not_found");
    expect((await createVisit({ patient_id: "nope", language: "en", consent: true })).body.code).toBe("patient_not_found");
    expect((await createVisit({ patient_id: p1, language: "de", consent: true })).body.code).toBe("validation_failed");
  });

  it("unknown and malformed visit ids are 404 visit_not_found", async () => {
    for (const id of ["nope", "00000000-0000-4000-8000-000000000000", "'; drop table visits; --"]) {
      expect(await getVisit(id)).toMatchObject({ status: 404, body: { code: "visit_not_found" } });
    }
  });

  it("deleting a visit removes it, its chunks, its assembled audio and transcripts, and is audited", async () => {
    const patient = (await createPatient({ display_name: "To Delete" })).body.id;
    const id = (await createVisit({ patient_id: patient, language: "en", consent: true })).body.id;
    for (const [seq, data] of webmChunks(3, 256).entries()) {
      await call(h, chunkRoute, {
        method: "PUT",
        path: `/api/visits/${id}/audio/chunks/${seq}`,
        params: { id, seq: String(seq) },
        body: data,
        headers: { "x-chunk-sha256": sha256(data) },
      });
    }
    await call(h, finishRoute, { method: "POST", path: `/api/visits/${id}/audio/finish`, params: { id }, json: { chunks: 3 } });
    await call(h, transcriptRoute, {
      method: "POST",
      path: `/api/visits/${id}/transcript`,
      params: { id },
      json: { text: "hello" },
    });
    const dir = path.join(h.dataDir, "blobs", "orgs", h.a.orgId, "visits", id);
    expect(fs.readdirSync(dir, { recursive: true }).length).toBeGreaterThanOrEqual(5);
    const other = (await createVisit({ patient_id: patient, language: "en", consent: true })).body.id;

    const res = await call(h, visitRoute, { method: "DELETE", path: `/api/visits/${id}`, params: { id }, as: "clinician" });
    expect(res).toEqual({ status: 204, body: null });
    expect(fs.existsSync(dir)).toBe(false);
    expect(await getVisit(id)).toMatchObject({ status: 404 });
    expect((await getVisit(other)).status).toBe(200);
    const left = await sql<{ n: number }>`
      select (select count(*) from public.visit_audio_chunks where visit_id = ${id})::int
           + (select count(*) from public.transcriptions where visit_id = ${id})::int as n`.execute(h.db.kysely);
    expect(left.rows[0]?.n).toBe(0);
    expect((await auditOf(id)).at(-1)).toMatchObject({ action: "visit.deleted", actor_id: h.a.users.clinician.id });
    const again = await call(h, visitRoute, { method: "DELETE", path: `/api/visits/${id}`, params: { id } });
    expect(again).toMatchObject({ status: 404, body: { code: "visit_not_found" } });
  });

  it("imports transcripts as new versions; earlier versions stay", async () => {
    const patient = (await createPatient({ display_name: "Transcript" })).body.id;
    const id = (await createVisit({ patient_id: patient, language: "fr", consent: true })).body.id;
    const post = (text: unknown) =>
      call(h, transcriptRoute, { method: "POST", path: `/api/visits/${id}/transcript`, params: { id }, json: { text } });
    expect(await post("Bonjour, docteur.")).toEqual({ status: 201, body: { id, version: 1 } });
    expect(await post("Bonjour, docteur. Corrigé.")).toEqual({ status: 201, body: { id, version: 2 } });
    const visit = await getVisit(id);
    expect(visit.body.status).toBe("transcribed");
    expect(visit.body.transcription).toEqual({
      version: 2,
      status: "completed",
      engine: "import",
      language: "fr",
      text: "Bonjour, docteur. Corrigé.",
      segments: [],
      // Issue 27: an import is a person's text.
      quality: { tier: "good", score: 1, reasons: [] },
    });
    const { rows } = await sql<{ version: number; text: string; created_by: string }>`
      select version, text, created_by from public.transcriptions where visit_id = ${id} order by version`.execute(h.db.kysely);
    expect(rows).toEqual([
      { version: 1, text: "Bonjour, docteur.", created_by: h.a.users.owner.id },
      { version: 2, text: "Bonjour, docteur. Corrigé.", created_by: h.a.users.owner.id },
    ]);
    expect((await post("")).body.code).toBe("validation_failed");
    expect((await post(42)).body.code).toBe("validation_failed");
    expect((await post("nul\u0000")).body.code).toBe("invalid_text");
    expect((await auditOf(id)).filter((e) => e.action === "visit.transcript_imported")).toHaveLength(2);
  });

  it("wrong methods are 405 with the allowed ones", async () => {
    const res = await call(h, visitRoute, { method: "PATCH", path: "/api/visits/x", params: { id: "x" }, json: {} });
    expect(res).toMatchObject({ status: 405, body: { code: "method_not_allowed" } });
    const chunk = await call(h, chunkRoute, {
      method: "GET",
      path: "/api/visits/x/audio/chunks/0",
      params: { id: "x", seq: "0" },
    });
    expect(chunk.status).toBe(405);
  });
});
