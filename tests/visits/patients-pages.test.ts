import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { OrgRole } from "#app/db/schema.ts";
import { action as patientAction, loader as patientLoader } from "#app/routes/app/patients/patient.tsx";
import { loader as tableLoader } from "#app/routes/app/patients/patients.tsx";
import { type MemberOrg, orgContext } from "#app/services/org-context/current-org.ts";
import { PATIENT_TABLE_PAGE_SIZE } from "#app/services/patients/patient-table.server.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { openVisitHarness, seedVisit, type VisitHarness } from "./harness.ts";

// Issue 29 "Patients": /patients (sort, search, pages, drafts by role) and /patients/:id
// (identity, timeline, upload) through their loaders and action on a real database, as each role
// of org A, with org B's look-alike patients beside them.
describeEachDatabase("/patients and /patients/:id", (target) => {
  let h: VisitHarness;
  const ids = { zoe: "", adam: "", mia: "", omar: "" };
  let bPatient = "";

  async function insertPatient(orgId: string, name: string, fields: { external_id?: string; date_of_birth?: string } = {}) {
    const { rows } = await sql<{ id: string }>`
      insert into public.patients (org_id, display_name, external_id, date_of_birth)
      values (${orgId}, ${name}, ${fields.external_id ?? null}, ${fields.date_of_birth ?? null}) returning id`.execute(
      h.db.kysely,
    );
    return rows[0]?.id ?? "";
  }
  async function visitOn(patientId: string, day: string, orgId = h.a.orgId) {
    const id = await seedVisit(h, { orgId, patientId, status: "transcribed" });
    await sql`update public.visits set visit_date = ${day}::date, created_at = ${`${day}T10:00:00Z`}::timestamptz where id = ${id}`.execute(
      h.db.kysely,
    );
    return id;
  }
  async function noteOn(visitId: string, status: "draft" | "signed") {
    const { rows } = await sql<{ id: string }>`
      insert into public.notes (org_id, visit_id, patient_id, template_id, template, language, status)
      select org_id, id, patient_id, 'builtin:soap', '{}'::jsonb, 'en', ${status} from public.visits where id = ${visitId}
      returning id`.execute(h.db.kysely);
    return rows[0]?.id ?? "";
  }

  beforeAll(async () => {
    h = await openVisitHarness(target);
    const a = h.a.orgId;
    ids.zoe = await insertPatient(a, "Zoé Abernathy", { external_id: "PMS-300", date_of_birth: "1990-05-01" });
    ids.adam = await insertPatient(a, "adam Brook", { external_id: "PMS-100", date_of_birth: "1950-01-31" });
    ids.mia = await insertPatient(a, "Mia Castle", { date_of_birth: "1975-07-07" });
    ids.omar = await insertPatient(a, "Omar Dale", { external_id: "PMS-200" });
    // Adam: two visits, the newer with an open draft; Mia: one older visit with two drafts; Zoé: signed only.
    await visitOn(ids.adam, "2025-01-10");
    await noteOn(await visitOn(ids.adam, "2026-03-02"), "draft");
    const miaVisit = await visitOn(ids.mia, "2024-06-01");
    await noteOn(miaVisit, "draft");
    await noteOn(miaVisit, "draft");
    await noteOn(await visitOn(ids.zoe, "2025-12-24"), "signed");
    bPatient = await insertPatient(h.b.orgId, "Adam Brookside", { external_id: "PMS-101" });
    await noteOn(await visitOn(bPatient, "2026-11-01", h.b.orgId), "draft");
  });
  afterAll(async () => {
    await h.close();
  });

  function contextAs(role: OrgRole) {
    const context = h.context();
    const org = {
      id: h.a.orgId,
      name: "A",
      slug: "a",
      kind: "practice",
      plan: "Clinic",
      pms: "none",
      timezone: "Europe/Paris",
      region: "eu",
      trial_ends_at: null,
      role,
    } as const;
    context.set(orgContext, { user: h.a.users[role], org, role, orgs: [org as MemberOrg], switchedFrom: null });
    return context;
  }
  // biome-ignore lint/suspicious/noExplicitAny: the loaders' unions are narrowed by the assertions.
  async function table(query: string, role: OrgRole = "clinician"): Promise<any> {
    const request = new Request(`http://murmur.test/fr/patients${query}`);
    return tableLoader({ request, context: contextAs(role), params: {} } as never);
  }
  const names = (page: { rows: { display_name: string }[] }) => page.rows.map((r) => r.display_name);

  it("sorts by every column both ways, empty values last, and never lists another organisation's patients", async () => {
    expect(names(await table(""))).toEqual(["adam Brook", "Mia Castle", "Omar Dale", "Zoé Abernathy"]);
    expect(names(await table("?sort=name&dir=desc"))).toEqual(["Zoé Abernathy", "Omar Dale", "Mia Castle", "adam Brook"]);
    expect(names(await table("?sort=date_of_birth"))).toEqual(["adam Brook", "Mia Castle", "Zoé Abernathy", "Omar Dale"]);
    expect(names(await table("?sort=external_id&dir=desc"))).toEqual(["Zoé Abernathy", "Omar Dale", "adam Brook", "Mia Castle"]);
    const byVisit = await table("?sort=last_visit&dir=desc");
    expect(names(byVisit)).toEqual(["adam Brook", "Zoé Abernathy", "Mia Castle", "Omar Dale"]);
    expect(byVisit.rows.map((r: { last_visit: string | null }) => r.last_visit)).toEqual([
      "2026-03-02",
      "2025-12-24",
      "2024-06-01",
      null,
    ]);
    const byDrafts = await table("?sort=open_drafts&dir=desc");
    expect(byDrafts.rows.map((r: { display_name: string; open_drafts: number }) => [r.display_name, r.open_drafts])).toEqual([
      ["Mia Castle", 2],
      ["adam Brook", 1],
      ["Omar Dale", 0],
      ["Zoé Abernathy", 0],
    ]);
    expect(byDrafts.total).toBe(4);
  });

  it("searches by part of the name, the start of the external id or a date of birth", async () => {
    expect(names(await table("?q=BROOK"))).toEqual(["adam Brook"]);
    expect(names(await table("?q=pms-"))).toEqual(["adam Brook", "Omar Dale", "Zoé Abernathy"]);
    expect(names(await table("?q=1975-07-07"))).toEqual(["Mia Castle"]);
    expect(names(await table("?q=%25"))).toEqual([]);
    const found = await table("?q=brook&sort=last_visit&dir=desc");
    expect(found).toMatchObject({ kind: "table", q: "brook", sort: "last_visit", dir: "desc", total: 1, pageCount: 1 });
  });

  it("pages on the server with a page count, and a page past the end shows the last", async () => {
    for (let i = 0; i < PATIENT_TABLE_PAGE_SIZE + 3; i++) await insertPatient(h.a.orgId, `Paged ${String(i).padStart(2, "0")}`);
    const first = await table("?q=paged");
    expect(first).toMatchObject({ total: PATIENT_TABLE_PAGE_SIZE + 3, pageCount: 2, page: 1 });
    expect(first.rows).toHaveLength(PATIENT_TABLE_PAGE_SIZE);
    const second = await table("?q=paged&page=2");
    expect(names(second)).toEqual(["Paged 25", "Paged 26", "Paged 27"]);
    expect((await table("?q=paged&page=9")).page).toBe(2);
  });

  it("gives staff no drafts column (they may not read notes) and admins a notice; a bad query is a 404 page", async () => {
    const staff = await table("?sort=open_drafts&dir=desc", "staff");
    expect(staff.canSeeDrafts).toBe(false);
    expect(staff.sort).toBe("name");
    expect(staff.rows.every((r: { open_drafts: number | null }) => r.open_drafts === null)).toBe(true);
    expect(await table("", "admin")).toEqual({ kind: "forbidden" });
    for (const bad of ["?sort=password", "?dir=up", "?page=0", "?page=x"]) {
      await expect(table(bad), bad).rejects.toMatchObject({ init: { status: 404 } });
    }
  });

  // biome-ignore lint/suspicious/noExplicitAny: narrowed by the assertions.
  async function record(patientId: string, role: OrgRole = "clinician"): Promise<any> {
    const request = new Request(`http://murmur.test/patients/${patientId}`);
    return patientLoader({ request, context: contextAs(role), params: { id: patientId } } as never);
  }

  it("shows one patient's visits and exams newest first, with note status for those who read notes", async () => {
    const exam = await sql<{ id: string }>`
      insert into public.perio_exams (org_id, patient_id, exam_date, data, confirmed)
      values (${h.a.orgId}, ${ids.adam}, '2025-06-15', '{"teeth":{}}'::jsonb, '{"stage":"II"}'::jsonb) returning id`.execute(
      h.db.kysely,
    );
    const page = await record(ids.adam);
    expect(page.patient).toMatchObject({ display_name: "adam Brook", external_id: "PMS-100", date_of_birth: "1950-01-31" });
    expect(page.timeline.map((e: { kind: string; date: string }) => [e.kind, e.date])).toEqual([
      ["visit", "2026-03-02"],
      ["perio", "2025-06-15"],
      ["visit", "2025-01-10"],
    ]);
    expect(page.timeline[0].note).toMatchObject({ status: "draft" });
    expect(page.timeline[1]).toMatchObject({ id: exam.rows[0]?.id, stage: "II" });
    expect(page.timeline[2].note).toBeNull();
    const staff = await record(ids.adam, "staff");
    expect(staff.timeline[0].note).toBeNull();
    expect(await record(ids.adam, "admin")).toEqual({ kind: "forbidden" });
    // The read is in the audit log.
    const audit = await sql<{ n: number }>`
      select count(*)::int as n from public.audit_log where action = 'patient.read' and entity_id = ${ids.adam}`.execute(
      h.db.kysely,
    );
    expect(audit.rows[0]?.n).toBeGreaterThanOrEqual(2);
  });

  it("answers another organisation's patient, an unknown one and a malformed id with the not-found page", async () => {
    for (const id of [bPatient, "00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      await expect(record(id), id).rejects.toMatchObject({ init: { status: 404 } });
    }
  });

  async function upload(patientId: string, fields: Record<string, string>, file?: { bytes: Uint8Array; type: string }) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    if (file) form.set("audio", new File([file.bytes as BlobPart], "visit.wav", { type: file.type }));
    const request = new Request(`http://murmur.test/fr/patients/${patientId}`, { method: "POST", body: form });
    try {
      const result = await patientAction({ request, context: contextAs("staff"), params: { id: patientId } } as never);
      const { data, init } = result as { data: unknown; init: { status: number } };
      return Response.json(data, { status: init.status });
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  }
  const wav = () => {
    const bytes = new Uint8Array(44 + 3200);
    bytes.set(new TextEncoder().encode("RIFF"), 0);
    bytes.set(new TextEncoder().encode("WAVE"), 8);
    return bytes;
  };
  const visitCount = async (patientId: string) =>
    (await sql<{ n: number }>`select count(*)::int as n from public.visits where patient_id = ${patientId}`.execute(h.db.kysely))
      .rows[0]?.n;

  it("uploads a recording as a new visit of the patient and opens it; refused files leave no visit behind", async () => {
    const before = (await visitCount(ids.omar)) ?? 0;
    const done = await upload(
      ids.omar,
      { language: "fr", consent: "on", template_id: "builtin:progress" },
      { bytes: wav(), type: "audio/wav" },
    );
    expect(done.status).toBe(302);
    const location = done.headers.get("location") ?? "";
    expect(location).toMatch(/^\/fr\/transcribing\?visit_id=[0-9a-f-]{36}$/);
    const visitId = location.split("=")[1];
    const row = await sql<{ status: string; language: string; audio_source: string; note_template_id: string }>`
      select status, language, audio_source, note_template_id from public.visits where id = ${visitId}`.execute(h.db.kysely);
    expect(row.rows[0]).toMatchObject({
      status: "uploaded",
      language: "fr",
      audio_source: "file",
      note_template_id: "builtin:progress",
    });
    expect(await visitCount(ids.omar)).toBe(before + 1);

    const notAudio = await upload(
      ids.omar,
      { language: "fr", consent: "on" },
      { bytes: new TextEncoder().encode("<html>"), type: "audio/wav" },
    );
    expect(notAudio.status).toBe(415);
    expect(await notAudio.json()).toEqual({ error: "audio_unsupported" });
    const noConsent = await upload(ids.omar, { language: "fr" }, { bytes: wav(), type: "audio/wav" });
    expect(noConsent.status).toBe(400);
    expect(await noConsent.json()).toEqual({ error: "consent_required" });
    const noFile = await upload(ids.omar, { language: "fr", consent: "on" });
    expect(await noFile.json()).toEqual({ error: "empty_audio" });
    const otherOrg = await upload(bPatient, { language: "fr", consent: "on" }, { bytes: wav(), type: "audio/wav" });
    expect(otherOrg.status).toBe(404);
    expect(await visitCount(ids.omar)).toBe(before + 1);
    expect(await visitCount(bPatient)).toBe(1);
  });
});
