import { afterAll, beforeAll, expect, it } from "vitest";
import * as examsRoute from "#app/routes/resources/api-patient-perio-exams.ts";
import * as examRoute from "#app/routes/resources/api-perio-exam.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { call, openVisitHarness, seedPatient, type VisitHarness } from "#tests/visits/harness.ts";

// Issue 25 probe: "NUL or a lone surrogate in a perio tooth note is a 500". The note follows the
// storable-text rule every other free-text field follows: 422 invalid_changes with invalid_text.
describeEachDatabase("perio tooth note text", (target) => {
  let h: VisitHarness;
  let patient: string;

  beforeAll(async () => {
    h = await openVisitHarness(target);
    patient = await seedPatient(h);
  });
  afterAll(async () => {
    await h.close();
  });

  it("refuses NUL, a lone surrogate or a control character in a tooth note with 422 invalid_text; keeps line breaks", async () => {
    const created = await call(h, examsRoute, {
      method: "POST",
      path: `/api/patients/${patient}/perio-exams`,
      params: { id: patient },
      json: {},
      as: "clinician",
    });
    const id = created.body.id as string;
    const patch = (value: string, version: number) =>
      call(h, examRoute, {
        method: "PATCH",
        path: `/api/perio-exams/${id}`,
        params: { id },
        json: { version, changes: [{ tooth: 8, field: "note", value }] },
        as: "clinician",
      });
    for (const bad of ["crown\u0000", "crack \ud800", "x\u001b[31m"]) {
      const res = await patch(bad, 1);
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(res.body.errors.map((e: { code: string }) => e.code)).toEqual(["invalid_text"]);
    }
    const ok = await patch("Crown fractured\nre-check in 3 months", 1);
    expect(ok.status).toBe(200);
    expect(ok.body.version).toBe(2);
  });
});
