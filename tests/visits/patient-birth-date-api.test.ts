import { afterAll, beforeAll, expect, it } from "vitest";
import * as patientsRoute from "#app/routes/resources/api-patients.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { call, openVisitHarness, type VisitHarness } from "#tests/visits/harness.ts";

// Issue 25 probe: "a date of birth outside the database's range is a 500 and a future one is
// accepted". POST /api/patients refuses both with 400 invalid_date_of_birth.

describeEachDatabase("POST /api/patients date_of_birth", (target) => {
  let h: VisitHarness;
  const create = (date_of_birth: string | null) =>
    call(h, patientsRoute, {
      method: "POST",
      path: "/api/patients",
      json: { display_name: "Birth Date", date_of_birth },
      as: "clinician",
    });

  beforeAll(async () => {
    h = await openVisitHarness(target);
  }, 240_000);
  afterAll(async () => {
    await h.close();
  });

  it("refuses a day outside the database's range, an unreal day or a future one with 400 invalid_date_of_birth", async () => {
    const tomorrow = new Date(Date.now() + 36 * 3600 * 1000).toISOString().slice(0, 10);
    for (const bad of ["0000-01-01", "9999-12-31", "1899-12-31", tomorrow]) {
      const res = await create(bad);
      expect(res.status, bad).toBe(400);
      expect(res.body, bad).toMatchObject({ code: "invalid_date_of_birth" });
    }
    expect((await create("1968-04-12")).status).toBe(201);
    expect((await create(null)).status).toBe(201);
  });
});
