import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as visitRoute from "#app/routes/resources/api-visit.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { call, openVisitHarness, seedVisit, type VisitHarness } from "#tests/visits/harness.ts";

// Issue 25 probe: "staff may delete a visit and with it a clinician's draft note they cannot even
// read". Decided: staff get 409 visit_has_notes and the visit and note stay; owners and clinicians
// still delete; staff still delete visits without notes.
describeEachDatabase("DELETE /api/visits/:id with notes", (target) => {
  let h: VisitHarness;
  beforeAll(async () => {
    h = await openVisitHarness(target);
  }, 240_000);
  afterAll(async () => {
    await h.close();
  });

  const withNote = async (status: "draft" | "signed") => {
    const visitId = await seedVisit(h);
    await sql`
      insert into public.notes (org_id, visit_id, patient_id, template_id, template, language, status, sections, content)
      select org_id, id, patient_id, 'builtin:soap', '{}'::jsonb, 'en', ${status}, '[]'::jsonb, '[]'::jsonb
      from public.visits where id = ${visitId}`.execute(h.db.kysely);
    return visitId;
  };
  const remove = (visitId: string, as: "staff" | "clinician" | "owner") =>
    call(h, visitRoute, { method: "DELETE", path: `/api/visits/${visitId}`, params: { id: visitId }, as });
  const notesOf = async (visitId: string) =>
    (await sql<{ n: number }>`select count(*)::int as n from public.notes where visit_id = ${visitId}`.execute(h.db.kysely))
      .rows[0]?.n;

  it("refuses staff with 409 visit_has_notes when the visit carries a draft or signed note, keeping both", async () => {
    for (const status of ["draft", "signed"] as const) {
      const visitId = await withNote(status);
      const res = await remove(visitId, "staff");
      expect(res.status, status).toBe(409);
      expect(res.body).toMatchObject({ code: "visit_has_notes" });
      expect(await notesOf(visitId)).toBe(1);
      expect(
        (await call(h, visitRoute, { method: "GET", path: `/api/visits/${visitId}`, params: { id: visitId }, as: "staff" }))
          .status,
      ).toBe(200);
    }
  });

  it("lets a clinician delete it, and staff delete a visit without notes", async () => {
    const visitId = await withNote("draft");
    expect((await remove(visitId, "clinician")).status).toBe(204);
    expect(await notesOf(visitId)).toBe(0);
    const bare = await seedVisit(h);
    expect((await remove(bare, "staff")).status).toBe(204);
  });
});
