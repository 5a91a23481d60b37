import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import * as visitsRoute from "#app/routes/resources/api-visits.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { call, openVisitHarness, seedPatient, type VisitHarness } from "#tests/visits/harness.ts";

// POST /api/visits `visit_date` over HTTP (issue 12, docs/api.md "Visits"): optional, a real day not
// after today in the organisation's time zone, defaulting to that day; the list shows it. The
// clock is pinned (Date only) to an evening in UTC that is already the next day in Auckland.

describeEachDatabase("POST /api/visits visit_date", (target) => {
  let h: VisitHarness;
  let patientId: string;
  const create = (extra: Record<string, unknown>) =>
    call(h, visitsRoute, {
      method: "POST",
      path: "/api/visits",
      json: { patient_id: patientId, title: "", language: "en", consent: true, ...extra },
      as: "clinician",
    });

  beforeAll(async () => {
    h = await openVisitHarness(target);
    patientId = await seedPatient(h);
    await sql`update public.organizations set timezone = 'Pacific/Auckland' where id = ${h.a.orgId}`.execute(h.db.kysely);
  }, 240_000);
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    await h.close();
  });

  it("defaults to today in the organisation's zone, keeps a past day, refuses a future or unreal one with stable codes", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-10T20:00:00Z"));
    const today = await create({});
    expect(today.status).toBe(201);
    const past = await create({ visit_date: "2025-12-01" });
    expect(past.status).toBe(201);
    expect((await create({ visit_date: "2026-03-11" })).status).toBe(201);
    expect((await create({ visit_date: "2026-03-12" })).body).toMatchObject({ code: "visit_date_in_future" });
    for (const bad of ["2025-02-30", "1899-12-31", "11/03/2026", "2026-3-1"]) {
      const res = await create({ visit_date: bad });
      expect(res.status, bad).toBe(400);
      expect(res.body.code, bad).toBe("invalid_visit_date");
    }
    const list = await call(h, visitsRoute, { method: "GET", path: `/api/visits?patient_id=${patientId}`, as: "clinician" });
    const byId = new Map((list.body as Array<{ id: string; visit_date: string }>).map((v) => [v.id, v.visit_date]));
    expect(byId.get(today.body.id)).toBe("2026-03-11");
    expect(byId.get(past.body.id)).toBe("2025-12-01");
  });
});
