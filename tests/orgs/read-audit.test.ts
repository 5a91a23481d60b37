import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withActor } from "#app/db/actor.server.ts";
import type { OrgRole } from "#app/db/schema.ts";
import * as codingPage from "#app/routes/app/coding.tsx";
import * as perioPage from "#app/routes/app/periodontal-chart.tsx";
import * as recordsQaPage from "#app/routes/app/records-qa.tsx";
import * as transcribingPage from "#app/routes/app/transcribing.tsx";
import * as caseRoute from "#app/routes/resources/api-coding-case.ts";
import * as exportRoute from "#app/routes/resources/api-coding-case-export.ts";
import * as noteRoute from "#app/routes/resources/api-note.ts";
import * as noteCodingRoute from "#app/routes/resources/api-note-coding.ts";
import * as notePdfRoute from "#app/routes/resources/api-note-pdf.ts";
import * as examsRoute from "#app/routes/resources/api-patient-perio-exams.ts";
import * as examRoute from "#app/routes/resources/api-perio-exam.ts";
import * as compareRoute from "#app/routes/resources/api-perio-exam-compare.ts";
import * as perioPdfRoute from "#app/routes/resources/api-perio-exam-pdf.ts";
import * as askRoute from "#app/routes/resources/api-rag-ask.ts";
import * as searchRoute from "#app/routes/resources/api-rag-search.ts";
import * as sourceRoute from "#app/routes/resources/api-rag-source.ts";
import * as visitRoute from "#app/routes/resources/api-visit.ts";
import * as audioFileRoute from "#app/routes/resources/api-visit-audio-file.ts";
import * as visitsRoute from "#app/routes/resources/api-visits.ts";
import { createExtractiveEngine } from "#app/services/notes/engines/extractive/index.ts";
import { signNote } from "#app/services/notes/sign.server.ts";
import { listAuditLog } from "#app/services/orgs/audit-log.server.ts";
import { recordRead } from "#app/services/orgs/read-audit.server.ts";
import { userContext } from "#app/services/session/user-context.ts";
import { acknowledgeAllChecks } from "#tests/notes/checks-harness.ts";
import { TEST_SITE_URL } from "#tests/setup/auth.ts";
import { responseOf } from "#tests/setup/context.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { call, openVisitHarness, pageContextIn, seedPatient, type VisitHarness, type Who } from "#tests/visits/harness.ts";
import { getRaw, uploadedVisit } from "#tests/visits/pipeline-helpers.ts";
import { generatedNote, patientOf, transcribedVisit } from "../notes/notes-harness.ts";

// Issue 17: every read of patient data leaves one audit row — who (actor, address), what (action,
// record, patient) and when — written in the read's own transaction, through the API and the pages
// alike; a refused read leaves none, a list is not a row per item, and the rows stay in their
// organisation under row-level security.

interface Row {
  action: string;
  actor_id: string | null;
  entity: string | null;
  entity_id: string | null;
  patient_id: string | null;
  ip: string | null;
  details: Record<string, unknown>;
}

describeEachDatabase("reads of patient data are audited", (target) => {
  let h: VisitHarness;
  let noteId: string;
  let visitId: string;
  let patientId: string;

  beforeAll(async () => {
    h = await openVisitHarness(target);
    ({ noteId, visitId } = await generatedNote(h, createExtractiveEngine()));
    patientId = await patientOf(h, visitId);
    // A harness and a generated note: minutes when eight engineers share two cores.
  }, 180_000);

  afterAll(async () => {
    await h.close();
  });

  /** The audit rows `run` added to `orgId` (read through the owner connection), oldest first. */
  async function logged(run: () => Promise<unknown>, orgId = h.a.orgId): Promise<Row[]> {
    const marker = await sql<{ max: string | null }>`select max(id)::text as max from public.audit_log`.execute(h.db.kysely);
    const since = marker.rows[0]?.max ?? "0";
    await run();
    const { rows } = await sql<Row>`
      select action, actor_id, entity, entity_id, details->>'patient_id' as patient_id, ip, details
      from public.audit_log where org_id = ${orgId} and id > ${since}::bigint order by id`.execute(h.db.kysely);
    return rows;
  }

  const userId = (who: OrgRole) => h.a.users[who].id;
  const page = (role: OrgRole, path: string) => {
    const user = h.a.users[role];
    const context = pageContextIn(h, h.a.orgId, { id: user.id, email: user.email }, role);
    context.set(userContext, { id: user.id, email: user.email });
    return { request: new Request(`${TEST_SITE_URL}${path}`), context, params: {} } as never;
  };

  it("the visit, note, note PDF and audio reads of the API each write one row with who, what and whose", async () => {
    const get = (mod: Parameters<typeof call>[1], path: string, id: string, as: Who = "clinician") =>
      call(h, mod, { method: "GET", path, params: { id }, as });
    const visit = await logged(async () => expect((await get(visitRoute, `/api/visits/${visitId}`, visitId)).status).toBe(200));
    expect(visit).toEqual([
      {
        action: "visit.read",
        actor_id: userId("clinician"),
        entity: "visit",
        entity_id: visitId,
        patient_id: patientId,
        ip: "127.0.0.1",
        details: { patient_id: patientId },
      },
    ]);
    const note = await logged(async () =>
      expect((await get(noteRoute, `/api/notes/${noteId}`, noteId, "owner")).status).toBe(200),
    );
    expect(note).toMatchObject([{ action: "note.read", actor_id: userId("owner"), entity_id: noteId, patient_id: patientId }]);
    const pdf = await logged(async () => {
      const res = await getRaw(h, notePdfRoute.loader, {
        path: `/api/notes/${noteId}/pdf`,
        params: { id: noteId },
        as: "clinician",
      });
      expect(res.status).toBe(200);
    });
    expect(pdf).toMatchObject([{ action: "note.pdf", entity: "note", entity_id: noteId, patient_id: patientId }]);

    const withAudio = await uploadedVisit(h);
    const audioPatient = await patientOf(h, withAudio);
    const listen = (range?: string) =>
      logged(async () => {
        const res = await getRaw(h, audioFileRoute.loader, {
          path: `/api/visits/${withAudio}/audio/file`,
          params: { id: withAudio },
          as: "clinician",
          headers: range ? { range } : {},
        });
        expect(res.status).toBeLessThan(300);
        await res.body?.cancel();
      });
    expect(await listen()).toMatchObject([{ action: "visit.audio_read", entity_id: withAudio, patient_id: audioPatient }]);
    expect(await listen("bytes=0-")).toHaveLength(1);
    // Seeking asks for later ranges: the same listen, not a row per range.
    expect(await listen("bytes=100-")).toEqual([]);
  });

  it("a refused read writes nothing, and a list is not logged as a row per item", async () => {
    const refused = await logged(async () => {
      const staff = await call(h, noteRoute, {
        method: "GET",
        path: `/api/notes/${noteId}`,
        params: { id: noteId },
        as: "staff",
      });
      expect(staff.status).toBe(403);
      const outsider = await call(h, visitRoute, {
        method: "GET",
        path: `/api/visits/${visitId}`,
        params: { id: visitId },
        as: "outsider",
      });
      expect(outsider.status).toBe(404);
    });
    expect(refused).toEqual([]);
    expect(
      await logged(async () => expect((await call(h, visitsRoute, { method: "GET", path: "/api/visits" })).status).toBe(200)),
    ).toEqual([]);
  });

  it("records answers: one row per question or source opened, with the patients cited, none for product help", async () => {
    const body = { query: "lisinopril", patientId };
    const asked = await logged(async () =>
      expect((await call(h, askRoute, { method: "POST", path: "/api/rag/ask", json: body, as: "clinician" })).status).toBe(200),
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ action: "rag.ask", entity: "records", entity_id: null, patient_id: patientId });
    expect(asked[0]?.details.patients).toEqual([patientId]);
    expect((asked[0]?.details.results as number) > 0).toBe(true);
    // The question is not kept: it can name a patient or a condition.
    expect(JSON.stringify(asked[0]?.details)).not.toContain("lisinopril");

    let citation = "";
    const searched = await logged(async () => {
      const res = await call(h, searchRoute, {
        method: "POST",
        path: "/api/rag/search",
        json: { query: "lisinopril" },
        as: "owner",
      });
      citation = res.body.citations[0].id;
    });
    expect(searched).toMatchObject([{ action: "rag.search", patient_id: null, actor_id: userId("owner") }]);
    expect(searched[0]?.details.sources).toContain(citation);
    const opened = await logged(async () =>
      expect((await call(h, sourceRoute, { method: "GET", path: `/api/rag/source?id=${citation}` })).status).toBe(200),
    );
    expect(opened).toMatchObject([{ action: "rag.source", entity_id: citation, patient_id: expect.any(String) }]);
    const help = await logged(async () =>
      expect(
        (
          await call(h, askRoute, {
            method: "POST",
            path: "/api/rag/ask",
            json: { query: "How do I invite a colleague?", scope: "help" },
            as: "admin",
          })
        ).status,
      ).toBe(200),
    );
    expect(help).toEqual([]);
    const onPage = await logged(() => recordsQaPage.loader(page("clinician", `/records-qa?patient=${patientId}&q=lisinopril`)));
    expect(onPage).toMatchObject([{ action: "rag.ask", patient_id: patientId }]);
  });

  it("the transcript, note editor and patient pages log what they show", async () => {
    const transcript = await logged(() =>
      transcribingPage.loader(page("clinician", `/transcribing?visit_id=${visitId}&transcript=1`)),
    );
    expect(transcript).toMatchObject([{ action: "visit.read", entity_id: visitId, patient_id: patientId }]);
    const editor = await logged(() => codingPage.loader(page("owner", `/coding?id=${noteId}`)));
    expect(editor.map((r) => [r.action, r.patient_id])).toEqual([
      ["note.read", patientId],
      ["visit.read", patientId],
    ]);
    const patient = await seedPatient(h);
    const chart = await logged(() => perioPage.loader(page("staff", `/periodontal-chart?patient_id=${patient}`)));
    expect(chart).toMatchObject([{ action: "patient.read", entity: "patient", entity_id: patient, patient_id: patient }]);
  });

  it("periodontal exams: a read, a comparison and a PDF are one row each", async () => {
    const patient = await seedPatient(h);
    const create = async () =>
      (
        await call(h, examsRoute, {
          method: "POST",
          path: `/api/patients/${patient}/perio-exams`,
          params: { id: patient },
          json: {},
          as: "clinician",
        })
      ).body.id as string;
    const first = await create();
    const second = await create();
    const read = await logged(() =>
      call(h, examRoute, { method: "GET", path: `/api/perio-exams/${first}`, params: { id: first }, as: "staff" }),
    );
    expect(read).toMatchObject([{ action: "perio_exam.read", actor_id: userId("staff"), entity_id: first, patient_id: patient }]);
    const compared = await logged(() =>
      call(h, compareRoute, { method: "GET", path: `/api/perio-exams/${first}/compare?with=${second}`, params: { id: first } }),
    );
    expect(compared).toMatchObject([{ action: "perio_exam.read", entity_id: first, details: { compared_with: second } }]);
    const pdf = await logged(async () => {
      const res = await getRaw(h, perioPdfRoute.loader, {
        path: `/api/perio-exams/${first}/pdf?copy=patient`,
        params: { id: first },
      });
      expect(res.status).toBe(200);
    });
    expect(pdf.map((r) => r.action)).toEqual(["perio_exam.pdf"]);
  });

  it("coding: reading a case and exporting it name the patient", async () => {
    const coded = await generatedNote(h, createExtractiveEngine(), { visitId: await transcribedVisit(h) });
    // A case opens on a signed note.
    await acknowledgeAllChecks(h, coded.noteId);
    await signNote({ db: h.db, actor: { userId: userId("clinician") }, orgId: h.a.orgId, noteId: coded.noteId });
    const opened = await call(h, noteCodingRoute, {
      method: "POST",
      path: `/api/notes/${coded.noteId}/coding`,
      params: { id: coded.noteId },
      as: "clinician",
    });
    const caseId = opened.body.id as string;
    expect(caseId).toBeTruthy();
    const casePatient = await patientOf(h, coded.visitId);
    const read = await logged(() =>
      call(h, caseRoute, { method: "GET", path: `/api/coding/cases/${caseId}`, params: { id: caseId }, as: "staff" }),
    );
    expect(read).toMatchObject([
      { action: "coding.case_read", entity: "coding_case", entity_id: caseId, patient_id: casePatient },
    ]);
    await sql`update public.coding_cases set status = 'coded', coded_at = now() where id = ${caseId}`.execute(h.db.kysely);
    const exported = await logged(async () => {
      const res = await responseOf(() =>
        exportRoute.action({
          request: new Request(`${TEST_SITE_URL}/api/coding/cases/${caseId}/export?format=csv`, {
            method: "POST",
            headers: { authorization: `Bearer ${h.a.users.staff.token}`, "x-org-id": h.a.orgId },
          }),
          context: h.context(),
          params: { id: caseId },
        } as never),
      );
      expect(res.status).toBe(200);
    });
    expect(exported).toMatchObject([{ action: "coding.case_exported", entity_id: caseId, patient_id: casePatient }]);
    // Opening a case runs the suggestion engine: slow on a shared machine.
  }, 180_000);

  describe("row-level security", () => {
    it("an organisation's owner sees its own read rows only, and nobody can write a read into another organisation", async () => {
      const bVisit = await transcribedVisit(h, { orgId: h.b.orgId });
      const inB = await logged(
        () => call(h, visitRoute, { method: "GET", path: `/api/visits/${bVisit}`, params: { id: bVisit }, as: "outsider" }),
        h.b.orgId,
      );
      expect(inB).toMatchObject([{ action: "visit.read", actor_id: h.b.owner.id, entity_id: bVisit }]);
      const trailA = await listAuditLog({
        db: h.db,
        actor: { userId: userId("owner") },
        orgId: h.a.orgId,
        filters: { action: "visit.read" },
        limit: 500,
      });
      expect(trailA.entries.length).toBeGreaterThan(0);
      expect(trailA.entries.some((e) => e.entity_id === bVisit)).toBe(false);
      // Under row-level security org B's owner reads no row of org A, even asking by id.
      const seen = await withActor(h.db, { userId: h.b.owner.id, orgId: h.a.orgId }, (trx) =>
        trx.selectFrom("audit_log").select("id").where("org_id", "=", h.a.orgId).execute(),
      );
      expect(seen).toEqual([]);
      // A clinician writes read rows but cannot read the trail.
      const clinicianView = await withActor(h.db, { userId: userId("clinician"), orgId: h.a.orgId }, (trx) =>
        trx.selectFrom("audit_log").select("id").where("org_id", "=", h.a.orgId).execute(),
      );
      expect(clinicianView).toEqual([]);
      // Writing as a member of B into A's trail is refused by the insert policy.
      await expect(
        withActor(h.db, { userId: h.b.owner.id, orgId: h.a.orgId }, (trx) =>
          recordRead(
            trx,
            { orgId: h.a.orgId, actor: { userId: h.b.owner.id } },
            { action: "visit.read", entity: "visit", entityId: visitId, visitId },
          ),
        ),
      ).rejects.toThrow();
    });
  });
});
