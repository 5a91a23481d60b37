import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { withActor } from "#app/db/actor.server.ts";
import * as examsRoute from "#app/routes/resources/api-patient-perio-exams.ts";
import * as examRoute from "#app/routes/resources/api-perio-exam.ts";
import * as compareRoute from "#app/routes/resources/api-perio-exam-compare.ts";
import * as pdfRoute from "#app/routes/resources/api-perio-exam-pdf.ts";
import { pdfPages } from "#tests/notes/pdf-text.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { call, openVisitHarness, seedPatient, type VisitHarness, type Who } from "#tests/visits/harness.ts";

// Issue 14 "API": exams per patient, the exam shape, PATCH with optimistic concurrency (409 with the
// current values), range checks (422), copy forward, comparison, roles, audit and row-level security.
describeEachDatabase("periodontal exams API", (target) => {
  let h: VisitHarness;
  let patient: string;
  let otherPatient: string;

  beforeAll(async () => {
    h = await openVisitHarness(target);
    patient = await seedPatient(h);
    otherPatient = await seedPatient(h);
  });

  afterAll(async () => {
    await h.close();
  });

  const create = (body: Record<string, unknown>, as: Who = "clinician", pid = patient) =>
    call(h, examsRoute, { method: "POST", path: `/api/patients/${pid}/perio-exams`, params: { id: pid }, json: body, as });
  const list = (pid = patient, as: Who = "staff") =>
    call(h, examsRoute, { method: "GET", path: `/api/patients/${pid}/perio-exams`, params: { id: pid }, as });
  const get = (id: string, as: Who = "owner") =>
    call(h, examRoute, { method: "GET", path: `/api/perio-exams/${id}`, params: { id }, as });
  const patch = (id: string, body: Record<string, unknown>, as: Who = "staff") =>
    call(h, examRoute, { method: "PATCH", path: `/api/perio-exams/${id}`, params: { id }, json: body, as });

  it("creates an exam, lists it and returns the documented shape with CAL, summary and classification", async () => {
    const created = await create({ exam_date: "2026-03-02" });
    expect(created).toEqual({ status: 201, body: { id: expect.any(String) } });
    const id = created.body.id as string;
    const saved = await patch(id, {
      version: 1,
      changes: [
        { tooth: 3, site: "MB", field: "pd", value: 5 },
        { tooth: 3, site: "MB", field: "gm", value: 1 },
        { tooth: 3, site: "MB", field: "bop", value: true },
        { tooth: 3, site: "B", field: "furcation", value: 2 },
        { tooth: 1, field: "missing", value: true },
      ],
    });
    expect(saved.status).toBe(200);
    expect(saved.body.version).toBe(2);
    const exam = (await get(id)).body;
    expect(exam).toMatchObject({ id, patient_id: patient, exam_date: "2026-03-02", version: 2 });
    expect(exam.teeth).toHaveLength(32);
    expect(exam.teeth[2]).toMatchObject({
      tooth: 3,
      fdi: 16,
      missing: false,
      implant: false,
      furcation: { B: 2 },
      sites: { MB: { pd: 5, gm: 1, cal: 6, bop: true, suppuration: false, plaque: false, calculus: false } },
    });
    expect(exam.teeth[0].missing).toBe(true);
    expect(exam.summary).toMatchObject({ teethPresent: 31, bopSites: 1, pd4: 1, pd5: 1, pd6: 0, meanPd: 5, meanCal: 6 });
    expect(exam.classification.proposed).toMatchObject({ periodontitis: false });
    expect((await list()).body).toEqual([expect.objectContaining({ id, exam_date: "2026-03-02", version: 2 })]);
    // The writes' trail; reads are logged too (tests/orgs/read-audit.test.ts).
    const audit = await sql<{ action: string; details: Record<string, unknown> }>`
      select action, details from public.audit_log
      where entity_id = ${id} and action not in ('perio_exam.read', 'perio_exam.pdf') order by id`.execute(h.db.kysely);
    expect(audit.rows).toEqual([
      { action: "perio_exam.created", details: { patient_id: patient, copied_from: null } },
      { action: "perio_exam.updated", details: { version: 2, changes: 5, fields: ["pd", "gm", "bop", "furcation", "missing"] } },
    ]);
  });

  it("answers a stale version with 409 version_conflict and the other person's values, writing nothing", async () => {
    const id = (await create({ exam_date: "2026-04-01" })).body.id as string;
    const first = await patch(id, { version: 1, changes: [{ tooth: 8, site: "B", field: "pd", value: 3 }] }, "clinician");
    expect(first.body.version).toBe(2);
    const stale = await patch(id, { version: 1, changes: [{ tooth: 8, site: "B", field: "pd", value: 7 }] }, "staff");
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe("version_conflict");
    expect(stale.body.current.version).toBe(2);
    expect(stale.body.current.teeth[7].sites.B.pd).toBe(3);
    expect((await get(id)).body.teeth[7].sites.B.pd).toBe(3);
  });

  it("refuses out-of-range values (422 with per-change codes) and bad bodies (400)", async () => {
    const id = (await create({})).body.id as string;
    const bad = await patch(id, {
      version: 1,
      changes: [
        { tooth: 8, site: "B", field: "pd", value: 16 },
        { tooth: 8, site: "B", field: "gm", value: -6 },
        { tooth: 8, site: "B", field: "furcation", value: 1 },
      ],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe("invalid_changes");
    expect(bad.body.errors.map((e: { code: string }) => e.code)).toEqual([
      "pd_out_of_range",
      "gm_out_of_range",
      "furcation_not_applicable",
    ]);
    expect((await patch(id, { changes: [] })).body.code).toBe("validation_failed");
    expect((await patch(id, { version: 1, changes: [{ tooth: 8, field: "colour", value: 1 }] })).status).toBe(400);
    expect((await get(id)).body.version).toBe(1);
  });

  it("copies the latest exam forward, compares two exams and refuses an exam of another patient", async () => {
    const before = (await create({ exam_date: "2025-09-01" }, "owner", otherPatient)).body.id as string;
    await patch(before, {
      version: 1,
      changes: [
        { tooth: 14, site: "ML", field: "pd", value: 3 },
        { tooth: 14, site: "ML", field: "gm", value: 1 },
        { tooth: 2, field: "missing", value: true },
      ],
    });
    const after = (await create({ exam_date: "2026-03-01", copy_from: "latest" }, "owner", otherPatient)).body.id as string;
    const copied = (await get(after)).body;
    expect(copied.copied_from).toBe(before);
    expect(copied.teeth[1].missing).toBe(true);
    expect(copied.teeth[13].sites.ML).toMatchObject({ pd: null, gm: 1 });
    await patch(after, { version: 1, changes: [{ tooth: 14, site: "ML", field: "pd", value: 6 }] });
    const cmp = await call(h, compareRoute, {
      method: "GET",
      path: `/api/perio-exams/${after}/compare?with=${before}`,
      params: { id: after },
    });
    expect(cmp.status).toBe(200);
    expect(cmp.body.before.id).toBe(before);
    expect(cmp.body.worse).toBe(1);
    expect(cmp.body.sites.find((s: { tooth: number; site: string }) => s.tooth === 14 && s.site === "ML")).toMatchObject({
      calBefore: 4,
      calAfter: 7,
      calDelta: 3,
      status: "worse",
    });
    // The clinic and patient PDFs: real PDF bytes, refused to admins like the rest.
    const pdf = await pdfRoute.loader({
      request: new Request(`http://murmur.test/api/perio-exams/${after}/pdf?copy=patient&lang=fr&org_id=${h.a.orgId}`, {
        headers: { authorization: `Bearer ${h.a.users.owner.token}` },
      }),
      context: h.context(),
      params: { id: after },
    } as never);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
    expect((await pdfPages(bytes)).join(" ")).toContain("bilan des gencives");
    const foreign = (await list(patient)).body[0].id as string;
    const refused = await call(h, compareRoute, {
      method: "GET",
      path: `/api/perio-exams/${after}/compare?with=${foreign}`,
      params: { id: after },
    });
    expect(refused.body.code).toBe("perio_compare_other_patient");
    expect((await create({ copy_from: foreign }, "owner", otherPatient)).body.code).toBe("perio_copy_from_not_found");
  });

  it("confirms or overrides the classification, kept and audited", async () => {
    const id = (await create({})).body.id as string;
    const r = await patch(
      id,
      { version: 1, risk: { smoking: "ge10" }, confirmed: { stage: 3, extent: "generalised", grade: "C" } },
      "clinician",
    );
    expect(r.body.classification.confirmed).toEqual({ stage: 3, extent: "generalised", grade: "C", overridden: true });
    expect(r.body.classification.confirmed_by).toBe(h.a.users.clinician.id);
    expect(r.body.classification.risk).toEqual({ smoking: "ge10" });
    const audit = await sql<{ action: string; details: Record<string, unknown> }>`
      select action, details from public.audit_log where entity_id = ${id} and action = 'perio_exam.classified'`.execute(
      h.db.kysely,
    );
    expect(audit.rows).toEqual([
      { action: "perio_exam.classified", details: expect.objectContaining({ overridden: true, risk_updated: true }) },
    ]);
  });

  it("lets owners, clinicians and staff chart; admins get 403, other organisations and bad ids 404", async () => {
    const id = (await create({}, "staff")).body.id as string;
    expect((await get(id, "admin")).body.code).toBe("forbidden_role");
    expect((await create({}, "admin")).body.code).toBe("forbidden_role");
    expect((await list(patient, "outsider")).body.code).toBe("patient_not_found");
    expect((await get(id, "outsider")).body.code).toBe("perio_exam_not_found");
    expect((await get("not-a-uuid")).body.code).toBe("perio_exam_not_found");
    expect((await patch(id, { version: 1, changes: [] }, "outsider")).status).toBe(404);
    expect((await create({}, "owner", "00000000-0000-4000-8000-000000000000")).body.code).toBe("patient_not_found");
  });

  it("row-level security: admins and other organisations see no exam, and cannot write one", async () => {
    const b = await seedPatient(h, h.b.orgId);
    await sql`insert into public.perio_exams (org_id, patient_id, exam_date, data)
      values (${h.b.orgId}, ${b}, '2026-01-01', '{"teeth":{}}')`.execute(h.db.kysely);
    const count = (userId: string, orgId: string) =>
      withActor(h.db, { userId, orgId }, async (trx) =>
        (await trx.selectFrom("perio_exams").select("org_id").execute()).map((r) => r.org_id),
      );
    expect(new Set(await count(h.a.users.staff.id, h.a.orgId))).toEqual(new Set([h.a.orgId]));
    expect(await count(h.a.users.admin.id, h.a.orgId)).toEqual([]);
    expect(await count(h.b.owner.id, h.b.orgId)).toEqual([h.b.orgId]);
    await expect(
      withActor(h.db, { userId: h.a.users.owner.id, orgId: h.a.orgId }, (trx) =>
        trx
          .insertInto("perio_exams")
          .values({ org_id: h.b.orgId, patient_id: b, exam_date: "2026-01-01", data: '{"teeth":{}}' })
          .execute(),
      ),
    ).rejects.toThrow(/row-level security/);
    const touched = await withActor(h.db, { userId: h.a.users.owner.id, orgId: h.a.orgId }, async (trx) =>
      Number(
        (await trx.updateTable("perio_exams").set({ version: 99 }).where("org_id", "=", h.b.orgId).executeTakeFirst())
          .numUpdatedRows,
      ),
    );
    expect(touched).toBe(0);
  });
});
