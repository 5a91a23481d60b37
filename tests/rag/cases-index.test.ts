import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { withActor } from "#app/db/actor.server.ts";
import type { OrgRole } from "#app/db/schema.ts";
import * as caseRoute from "#app/routes/resources/api-coding-case.ts";
import * as exportRoute from "#app/routes/resources/api-coding-case-export.ts";
import * as noteCodingRoute from "#app/routes/resources/api-note-coding.ts";
import * as askRoute from "#app/routes/resources/api-rag-ask.ts";
import * as sourceRoute from "#app/routes/resources/api-rag-source.ts";
import { createExtractiveEngine } from "#app/services/notes/engines/extractive/index.ts";
import { signNote } from "#app/services/notes/sign.server.ts";
import { deleteVisit } from "#app/services/visits/visits.server.ts";
import { acknowledgeAllChecks } from "#tests/notes/checks-harness.ts";
import { generatedNote, patientOf, transcribedVisit } from "#tests/notes/notes-harness.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { call, openVisitHarness, type VisitHarness, type Who } from "#tests/visits/harness.ts";

// The `cases` source of Ask Murmur (issue 12, 0026_rag_cases_and_embeddings.sql): a coding case's
// accepted codes are index rows kept current by triggers on every case write path (open, accept,
// reject, edit, add, coded, exported, visit deleted), read by owners, clinicians and staff (not
// admins, not another organisation) before ranking, filtered by `record_types: ["case"]`, cited
// with source.table "cases".

const VISIT_TEXT =
  "I have had a cough for two weeks. I have type 2 diabetes and essential hypertension. No fever. The assessment is acute bronchitis.";

describeEachDatabase("Ask Murmur: coding cases", (target) => {
  let h: VisitHarness;
  let visitId: string;
  let noteId: string;
  let caseId: string;
  let patientId: string;

  const caseRows = async () => {
    const { rows } = await sql<{ text: string; label: string; field: string; visit_date: string }>`
      select text, label, field, visit_date::text from public.record_chunks
      where source_table = 'cases' and source_id = ${caseId} order by position`.execute(h.db.kysely);
    return rows;
  };
  const patch = (json: unknown, as: Who = "clinician") =>
    call(h, caseRoute, { method: "PATCH", path: `/api/coding/cases/${caseId}`, params: { id: caseId }, json, as });
  const ask = (body: unknown, as: Who = "clinician") =>
    call(h, askRoute, { method: "POST", path: "/api/rag/ask", json: body, as });
  const source = (id: string, as: Who = "clinician") =>
    call(h, sourceRoute, { method: "GET", path: `/api/rag/source?id=${encodeURIComponent(id)}`, as });

  beforeAll(async () => {
    h = await openVisitHarness(target);
    visitId = await transcribedVisit(h, { text: VISIT_TEXT });
    patientId = await patientOf(h, visitId);
    noteId = (await generatedNote(h, createExtractiveEngine(), { visitId })).noteId;
    await acknowledgeAllChecks(h, noteId);
    await signNote({ db: h.db, actor: { userId: h.a.users.clinician.id }, orgId: h.a.orgId, noteId });
    const opened = await call(h, noteCodingRoute, {
      method: "POST",
      path: `/api/notes/${noteId}/coding`,
      params: { id: noteId },
      as: "clinician",
    });
    expect(opened.status).toBe(200);
    caseId = opened.body.id;
  }, 240_000);
  afterAll(async () => {
    await h.close();
  });

  it("indexes only accepted codes, and follows accept, reject, edit, add, coded and exported", async () => {
    // Opened: every line is a suggestion, nothing decided, nothing to cite.
    expect(await caseRows()).toEqual([]);
    const lines = (await call(h, caseRoute, { method: "GET", path: `/api/coding/cases/${caseId}`, params: { id: caseId } })).body
      .lines as Array<{ id: string; code: string }>;
    const hypertension = lines.find((l) => l.code === "I10");
    expect(hypertension).toBeDefined();
    const others = lines.filter((l) => l.id !== hypertension?.id);
    await patch({
      operations: [
        { op: "accept", line_id: hypertension?.id },
        ...others.map((l) => ({ op: "reject", line_id: l.id, reason: "not addressed" })),
      ],
    });
    expect(await caseRows()).toEqual([
      {
        text: "ICD-10-CM I10: Essential (primary) hypertension",
        label: "open",
        field: "diagnosis",
        visit_date: expect.any(String),
      },
    ]);
    // Edit the accepted line: its row follows the new code; add one by search; code the case.
    await patch({
      operations: [
        { op: "edit", line_id: hypertension?.id, code: "I15.0" },
        { op: "add", system: "icd10cm", code: "Z72.0" },
      ],
      status: "coded",
    });
    const coded = await caseRows();
    expect(coded.map((r) => r.text)).toEqual([
      expect.stringMatching(/^ICD-10-CM I15\.0: Renovascular hypertension/),
      "ICD-10-CM Z72.0: Tobacco use",
    ]);
    expect(coded.every((r) => r.label === "coded")).toBe(true);
    // Staff export the coded case: the rows carry the new status.
    const headers = new Headers({ authorization: `Bearer ${h.a.users.staff.token}`, "x-org-id": h.a.orgId });
    const res = (await exportRoute.action({
      request: new Request(`http://localhost/api/coding/cases/${caseId}/export?format=csv`, { method: "POST", headers }),
      context: h.context(),
      params: { id: caseId },
    } as never)) as Response;
    expect(res.status).toBe(200);
    expect((await caseRows()).map((r) => r.label)).toEqual(["exported", "exported"]);
  });

  it("answers from a case with a 'cases' citation, for owners, clinicians and staff; admins and B see nothing", async () => {
    const res = await ask({ query: "Does the patient use tobacco?", patientId, filters: { record_types: ["case"] } });
    expect(res.status).toBe(200);
    const cited = res.body.citations[0];
    expect(cited.source).toMatchObject({
      table: "cases",
      id: caseId,
      field: "diagnosis",
      visit_id: visitId,
      patient_id: patientId,
    });
    expect(res.body.answer).toContain("Tobacco use");
    expect(res.body.citations.every((c: { source: { table: string } }) => c.source.table === "cases")).toBe(true);
    const staff = await ask({ query: "Does the patient use tobacco?", patientId, filters: { record_types: ["case"] } }, "staff");
    expect(staff.body.citations[0]?.source.table).toBe("cases");
    const view = await source(cited.id, "staff");
    expect(view.status).toBe(200);
    expect(view.body.metadata).toMatchObject({ table: "cases", id: caseId, case_status: "exported" });
    expect(view.body.content).toContain("Z72.0");
    expect((await source(cited.id, "admin")).status).toBe(404);
    expect((await source(cited.id, "outsider")).status).toBe(404);
    // Without the filter a transcript may rank too, but a note-only filter never returns the case.
    const notes = await ask({ query: "tobacco use", patientId, filters: { record_types: ["doctor_note"] } });
    expect(notes.body.citations.some((c: { source: { table: string } }) => c.source.table === "cases")).toBe(false);

    const visible = (role: OrgRole, orgId = h.a.orgId, userId = h.a.users[role].id) =>
      withActor(h.db, { userId, orgId }, async (trx) => {
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from public.record_chunks where record_type = 'case'`.execute(trx);
        return rows[0]?.n ?? 0;
      });
    expect(await visible("clinician")).toBe(2);
    expect(await visible("staff")).toBe(2);
    expect(await visible("admin")).toBe(0);
    expect(await visible("owner", h.b.orgId, h.b.owner.id)).toBe(0);
  });

  it("a visit with a signed note is not deleted, so its case rows stay; a deleted case takes its rows", async () => {
    expect((await caseRows()).length).toBe(2);
    // 0012: a signed note stops its visit's deletion, and a case needs a signed note.
    await expect(
      deleteVisit({ db: h.db, actor: { userId: h.a.users.clinician.id }, orgId: h.a.orgId, visitId, store: h.store }),
    ).rejects.toMatchObject({ status: 403 });
    expect((await caseRows()).length).toBe(2);
    // No app path deletes a case; the trigger still keeps the index honest if one is (the operator's SQL).
    await sql`delete from public.coding_cases where id = ${caseId}`.execute(h.db.kysely);
    expect(await caseRows()).toEqual([]);
  });
});
