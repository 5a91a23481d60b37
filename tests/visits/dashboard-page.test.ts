import { sql } from "kysely";
import { createElement } from "react";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { PatientResults } from "#app/components/patients/patient-results.tsx";
import { VisitList } from "#app/components/patients/visit-list.tsx";
import type { OrgRole } from "#app/db/schema.ts";
import { action, loader } from "#app/routes/app/dashboard.tsx";
import { type MemberOrg, orgContext } from "#app/services/org-context/current-org.ts";
import { DIRECTORY_PAGE_SIZE } from "#app/services/patients/directory.server.ts";
import { renderAt } from "#tests/billing/render.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { seedPatient, seedVisit, type VisitHarness } from "./harness.ts";

// Issue 5 "Pages to list, search and open them" on /dashboard: the loader and the "New patient"
// action over a real database, as each role of org A, with org B's look-alike data beside it.
describeEachDatabase("/dashboard patients and visits", (target) => {
  let h: VisitHarness;
  let bPatient: string;
  beforeAll(async () => {
    const { openVisitHarness } = await import("./harness.ts");
    h = await openVisitHarness(target);
    // Org B holds a patient whose name and external id match every search below.
    bPatient = await insertPatient(h.b.orgId, "Zelda Quartermain", { external_id: "PMS-77", date_of_birth: "1961-04-12" });
    await seedVisit(h, { orgId: h.b.orgId, patientId: bPatient, status: "transcribed" });
  });
  afterAll(async () => {
    await h.close();
  });

  // Setup through the owner connection. (An UPDATE of patients trips 0007's clinical_row_guard,
  // which reads visit-only columns: the fields are written at insert.)
  async function insertPatient(
    orgId: string,
    name: string,
    fields: { external_id?: string; date_of_birth?: string; sex?: string } = {},
  ): Promise<string> {
    const { rows } = await sql<{ id: string }>`
      insert into public.patients (org_id, display_name, external_id, date_of_birth, sex)
      values (${orgId}, ${name}, ${fields.external_id ?? null}, ${fields.date_of_birth ?? null}, ${fields.sex ?? null})
      returning id`.execute(h.db.kysely);
    return rows[0]?.id ?? "";
  }

  function contextAs(role: OrgRole, timezone = "Europe/Paris") {
    const context = h.context();
    const user = h.a.users[role];
    const org = {
      id: h.a.orgId,
      name: "A",
      slug: "a",
      kind: "practice",
      plan: "Clinic",
      pms: "none",
      timezone,
      region: "eu",
      trial_ends_at: null,
      role,
    } as const;
    context.set(orgContext, { user, org, role, orgs: [org as MemberOrg], switchedFrom: null });
    return context;
  }

  async function load(query: string, role: OrgRole = "clinician") {
    const request = new Request(`http://murmur.test/fr/dashboard${query}`);
    // biome-ignore lint/suspicious/noExplicitAny: the loader's union is narrowed by the assertions.
    return (await loader({ request, context: contextAs(role), params: {} } as never)) as any;
  }

  /** The action's answer as the client sees it: a redirect, or data with a status (4xx). */
  async function post(fields: Record<string, string>, role: OrgRole = "staff", timezone?: string) {
    const request = new Request("http://murmur.test/fr/dashboard", { method: "POST", body: new URLSearchParams(fields) });
    let result: unknown;
    try {
      result = await action({ request, context: contextAs(role, timezone), params: {} } as never);
    } catch (thrown) {
      if (!(thrown instanceof Response)) throw thrown;
      result = thrown;
    }
    if (result instanceof Response) return result;
    const { data, init } = result as { data: unknown; init: { status: number } };
    return Response.json(data, { status: init.status });
  }

  it("finds the organisation's patients by name, external id prefix and date of birth, never another organisation's", async () => {
    const zelda = await insertPatient(h.a.orgId, "Zelda Quartermain", {
      external_id: "PMS-7701",
      date_of_birth: "1961-04-12",
      sex: "female",
    });
    for (const role of ["owner", "clinician", "staff"] as const) {
      for (const q of ["quarter", "ZELDA Q", "pms-77", "1961-04-12"]) {
        const page = await load(`?q=${encodeURIComponent(q)}`, role);
        expect(page.kind, `${role} ${q}`).toBe("dashboard");
        const ids = page.patients.items.map((p: { id: string }) => p.id);
        expect(ids, `${role} ${q}`).toContain(zelda);
        expect(ids, `${role} ${q}`).not.toContain(bPatient);
      }
    }
    const page = await load("?q=quartermain");
    expect(page.q).toBe("quartermain");
    expect(page.patients.items).toEqual([
      expect.objectContaining({
        id: zelda,
        display_name: "Zelda Quartermain",
        date_of_birth: "1961-04-12",
        sex: "female",
        external_id: "PMS-7701",
        latest_visits: [],
      }),
    ]);
    // Wildcards are characters, a date that does not exist matches no birthday, and the end of an id is not its start.
    for (const q of ["%", "_elda", "1961-02-30", "7701"]) {
      expect((await load(`?q=${encodeURIComponent(q)}`)).patients.items.map((p: { id: string }) => p.id)).not.toContain(zelda);
    }
  });

  it("shows each patient's three latest visits and the organisation's recent visits with clinician, language and state", async () => {
    const patient = await seedPatient(h, h.a.orgId, "Olwen Brackenbury");
    const visits: string[] = [];
    for (const status of ["transcribed", "failed", "transcribing", "uploaded"]) {
      const id = await seedVisit(h, { patientId: patient, status, language: "fr" });
      await sql`update public.visits set created_at = now() + (${visits.length} || ' seconds')::interval where id = ${id}`.execute(
        h.db.kysely,
      );
      visits.push(id);
    }
    const [done, failed, running, queued] = visits as [string, string, string, string];
    await sql`update public.visits set title = 'Check-up', clinician_id = ${h.a.users.clinician.id} where id = ${done}`.execute(
      h.db.kysely,
    );
    await sql`update public.visits set failure_code = 'engine_timeout' where id = ${failed}`.execute(h.db.kysely);
    await sql`update public.visits set transcription_progress = 0.42 where id = ${running}`.execute(h.db.kysely);

    const page = await load("?q=brackenbury", "staff");
    const [found] = page.patients.items;
    expect(found.latest_visits.map((v: { id: string }) => v.id)).toEqual([queued, running, failed]);
    expect(found.latest_visits.map((v: { transcription: unknown }) => v.transcription)).toEqual([
      { state: "queued", progress: null, failure_code: null },
      { state: "running", progress: 0.42, failure_code: null },
      { state: "failed", progress: null, failure_code: "engine_timeout" },
    ]);

    const recent = page.visits.items;
    expect(recent.slice(0, 4).map((v: { id: string }) => v.id)).toEqual([queued, running, failed, done]);
    expect(recent[3]).toMatchObject({
      id: done,
      title: "Check-up",
      patient_id: patient,
      patient_name: "Olwen Brackenbury",
      language: "fr",
      status: "transcribed",
      transcription: { state: "done", progress: null, failure_code: null },
    });
    expect(recent[3].clinician_name).toBeTruthy();
    expect(recent[0].clinician_name).toBeNull();
    const bVisitIds = (
      await sql<{ id: string }>`select id from public.visits where org_id = ${h.b.orgId}`.execute(h.db.kysely)
    ).rows.map((r) => r.id);
    for (const v of recent) expect(bVisitIds).not.toContain(v.id);
    expect(page.timeZone).toBe("Europe/Paris");
  });

  it("pages through patients and visits 50 at a time, and refuses a malformed page number", async () => {
    const prefix = `Paged ${Date.now()}`;
    await sql`
      insert into public.patients (org_id, display_name)
      select ${h.a.orgId}, ${prefix} || ' ' || lpad(n::text, 3, '0') from generate_series(1, 55) as n`.execute(h.db.kysely);
    const first = await load(`?q=${encodeURIComponent(prefix)}`);
    expect(first.patients.items).toHaveLength(DIRECTORY_PAGE_SIZE);
    expect(first.patients).toMatchObject({ page: 1, has_more: true });
    expect(first.patients.items[0].display_name).toBe(`${prefix} 001`);
    const second = await load(`?q=${encodeURIComponent(prefix)}&page=2`);
    expect(second.patients).toMatchObject({ page: 2, has_more: false });
    expect(second.patients.items.map((p: { display_name: string }) => p.display_name)).toEqual(
      [51, 52, 53, 54, 55].map((n) => `${prefix} 0${n}`),
    );

    const visitCount = Number(
      (await sql<{ n: string }>`select count(*) as n from public.visits where org_id = ${h.a.orgId}`.execute(h.db.kysely)).rows[0]
        ?.n,
    );
    const patient = await seedPatient(h);
    for (let i = visitCount; i <= DIRECTORY_PAGE_SIZE; i += 1) await seedVisit(h, { patientId: patient });
    const visitsFirst = await load("?visits_page=1");
    expect(visitsFirst.visits).toMatchObject({ page: 1, has_more: true });
    expect(visitsFirst.visits.items).toHaveLength(DIRECTORY_PAGE_SIZE);
    const visitsSecond = await load("?visits_page=2");
    expect(visitsSecond.visits.items.length).toBeGreaterThan(0);
    expect(visitsSecond.visits.items.map((v: { id: string }) => v.id)).not.toContain(visitsFirst.visits.items[0].id);

    for (const bad of ["?page=0", "?page=abc", "?visits_page=-1", "?page=1.5"]) {
      const thrown = await load(bad).then(
        () => null,
        (e: unknown) => e,
      );
      expect(thrown, bad).toMatchObject({ data: { kind: "invalid" }, init: { status: 404 } });
    }
  });

  it("tells an admin that patients are not part of their role, without any clinical data", async () => {
    const page = await load("?q=zelda", "admin");
    expect(page.kind).toBe("forbidden");
    expect(page).not.toHaveProperty("patients");
    expect(page).not.toHaveProperty("visits");
  });

  it("creates a patient from the form, then redirects to it (staff, clinician, owner)", async () => {
    for (const role of ["staff", "clinician", "owner"] as const) {
      const externalId = `EXT-${role}-${Date.now()}`;
      const response = await post(
        {
          display_name: `  Rhiannon ${role}  `,
          date_of_birth: "1990-02-28",
          sex: "other",
          external_id: externalId,
          notes: "Prefers morning appointments.",
        },
        role,
      );
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get("location") ?? "", "http://murmur.test");
      expect(location.pathname).toBe("/fr/dashboard");
      expect(location.searchParams.get("q")).toBe(`Rhiannon ${role}`);
      const id = location.searchParams.get("created");
      const { rows } = await sql<Record<string, unknown>>`
        select org_id, display_name, to_char(date_of_birth, 'YYYY-MM-DD') as dob, sex, external_id, notes, created_by
        from public.patients where id = ${id}`.execute(h.db.kysely);
      expect(rows[0]).toEqual({
        org_id: h.a.orgId,
        display_name: `Rhiannon ${role}`,
        dob: "1990-02-28",
        sex: "other",
        external_id: externalId,
        notes: "Prefers morning appointments.",
        created_by: h.a.users[role].id,
      });
      const page = await load(`${location.search}`, role);
      expect(page.created).toBe(id);
      expect(page.patients.items.map((p: { id: string }) => p.id)).toContain(id);
    }
    // Only a name is needed.
    expect((await post({ display_name: "Name Only", date_of_birth: "", sex: "", external_id: "", notes: "" })).status).toBe(302);
  });

  it("answers bad input with a 400 and a stable code, keeping what was typed", async () => {
    const future = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const cases: [Record<string, string>, string][] = [
      [{ display_name: "   " }, "patient_name_required"],
      [{}, "patient_name_required"],
      [{ display_name: "x".repeat(201) }, "patient_name_too_long"],
      [{ display_name: "Ann", date_of_birth: "1990-02-30" }, "invalid_date_of_birth"],
      [{ display_name: "Ann", date_of_birth: future }, "invalid_date_of_birth"],
      [{ display_name: "Ann", date_of_birth: "1899-12-31" }, "invalid_date_of_birth"],
      [{ display_name: "Ann", sex: "robot" }, "invalid_input"],
      [{ display_name: "Ann", external_id: "x".repeat(101) }, "external_id_too_long"],
    ];
    for (const [fields, code] of cases) {
      const response = await post(fields);
      expect(response.status, code).toBe(400);
      const body = await response.json();
      expect(body.error, JSON.stringify(fields)).toBe(code);
      expect(body.values.display_name ?? "").toBe(fields.display_name ?? "");
    }
  });

  it("takes 'today' for a date of birth in the organisation's time zone, at 00:30 and 23:30 local", async () => {
    const dobOf = async (response: Response) => {
      const id = new URL(response.headers.get("location") ?? "", "http://murmur.test").searchParams.get("created");
      const { rows } = await sql<{ dob: string }>`
        select to_char(date_of_birth, 'YYYY-MM-DD') as dob from public.patients where id = ${id}`.execute(h.db.kysely);
      return rows[0]?.dob;
    };
    // The service checks the stored organisation's zone too (issue 25): keep it equal to the page's.
    const zoneOf = (zone: string) =>
      sql`update public.organizations set timezone = ${zone} where id = ${h.a.orgId}`.execute(h.db.kysely);
    const { rows: before } = await sql<{ timezone: string }>`
      select timezone from public.organizations where id = ${h.a.orgId}`.execute(h.db.kysely);
    try {
      // 6 March, 00:30 in Paris, still the 5th in UTC: a baby born today in Paris is born on the 6th.
      await zoneOf("Europe/Paris");
      vi.useFakeTimers({ toFake: ["Date"], now: new Date("2024-03-05T23:30:00Z") });
      const born = await post({ display_name: "Bébé Martin", date_of_birth: "2024-03-06" });
      expect(born.status).toBe(302);
      expect(await dobOf(born)).toBe("2024-03-06");
      expect((await (await post({ display_name: "Ann", date_of_birth: "2024-03-07" })).json()).error).toBe(
        "invalid_date_of_birth",
      );
      // 5 March, 23:30 in New York, already the 6th in UTC: the 6th is tomorrow there.
      vi.setSystemTime(new Date("2024-03-06T04:30:00Z"));
      await zoneOf("America/New_York");
      const tomorrow = await post({ display_name: "Ann", date_of_birth: "2024-03-06" }, "staff", "America/New_York");
      expect(tomorrow.status).toBe(400);
      expect((await tomorrow.json()).error).toBe("invalid_date_of_birth");
      const today = await post({ display_name: "Baby Jones", date_of_birth: "2024-03-05" }, "staff", "America/New_York");
      expect(today.status).toBe(302);
      // A date of birth is a calendar day: stored and shown as typed, whatever the zones.
      expect(await dobOf(today)).toBe("2024-03-05");
    } finally {
      vi.useRealTimers();
      await zoneOf(before[0]?.timezone ?? "UTC");
    }
  });

  it("prints visit times on the organisation's clock and dates of birth as calendar days", async () => {
    const patient = await insertPatient(h.a.orgId, `Quillon ${Date.now()}`, { date_of_birth: "1970-03-06" });
    const visit = await seedVisit(h, { patientId: patient, status: "transcribed" });
    // 6 March 2024, 00:30 in Paris: still the 5th in UTC.
    await sql`update public.visits set created_at = '2024-03-05T23:30:00Z' where id = ${visit}`.execute(h.db.kysely);
    const page = await load(`?q=${encodeURIComponent("Quillon")}`, "clinician");
    const [found] = page.patients.items;
    expect(found.date_of_birth).toBe("1970-03-06");
    const html = await renderAt(
      "/fr/dashboard",
      createElement(PatientResults, { q: "Quillon", patients: page.patients, created: null, timeZone: page.timeZone }),
    );
    expect(html).toContain("6 mars 2024, 00:30");
    expect(html).not.toContain("5 mars 2024");
    expect(html).toContain("6 mars 1970");
    const visits = await renderAt(
      "/dashboard",
      createElement(VisitList, { visits: found.latest_visits, timeZone: "America/New_York" }),
    );
    expect(visits).toMatch(/Mar 5, 2024, 6:30\sPM/);
  });

  it("refuses a duplicate external id with 409 and an admin with 403, creating nothing", async () => {
    const externalId = `DUP-${Date.now()}`;
    expect((await post({ display_name: "First", external_id: externalId })).status).toBe(302);
    const duplicate = await post({ display_name: "Second", external_id: externalId });
    expect(duplicate.status).toBe(409);
    expect((await duplicate.json()).error).toBe("patient_external_id_taken");
    // Org B may use the same external id: ids are unique per organisation only.
    const admin = await post({ display_name: "By admin" }, "admin");
    expect(admin.status).toBe(403);
    expect((await admin.json()).error).toBe("forbidden_role");
    const { rows } = await sql<{ n: string }>`
      select count(*) as n from public.patients where display_name in ('Second', 'By admin')`.execute(h.db.kysely);
    expect(Number(rows[0]?.n)).toBe(0);
  });
});
