import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "#app/db/database.server.ts";
import { loadQuality, qualityExport } from "#app/services/dashboard/quality-report.server.ts";
import { isAppError } from "#app/utils/app-error.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { createAuthUser, createOrg } from "#tests/setup/orgs.ts";
import { plantVisit, seedPatient } from "./seed.ts";

// Issue 16 "Quality telemetry": figures from what the sign-off stores (per-section edit distance on
// the signed version, the draft in notes.sections), per role, and an export without PHI.

const NOW = new Date("2024-03-31T21:45:00Z");

describeEachDatabase("dashboard quality", (target) => {
  let db: Database;
  let orgId: string;
  const u: Record<"owner" | "c1" | "c2" | "staff", string> = { owner: "", c1: "", c2: "", staff: "" };

  beforeAll(async () => {
    db = await target.open();
    for (const k of Object.keys(u) as (keyof typeof u)[]) u[k] = (await createAuthUser(db)).id;
    orgId = await createOrg(db, [
      { userId: u.owner, role: "owner" },
      { userId: u.c1, role: "clinician" },
      { userId: u.c2, role: "clinician" },
      { userId: u.staff, role: "staff" },
    ]);
    const p = await seedPatient(db, orgId, "Quality patient Zoé");
    const sign = (clinician: string, day: string, plan: [string, string, number], rating?: number) =>
      plantVisit(db, orgId, p, {
        clinician,
        createdAt: `${day}T09:00:00Z`,
        status: "transcribed",
        note: {
          status: "signed",
          generatedAt: `${day}T09:30:00Z`,
          signedAt: `${day}T10:00:00Z`,
          rating,
          sections: [
            { key: "subjective", draft: "Cough for two weeks.", signed: "Cough for two weeks.", distance: 0 },
            { key: "plan", draft: plan[0], signed: plan[1], distance: plan[2] },
          ],
        },
      });
    // c1: the plan rewritten (10 of 20 characters); c2: signed as drafted.
    await sign(u.c1, "2024-03-25", ["Albuterol inhaler.x", "Salbutamol inhaler.", 10], 4);
    await sign(u.c2, "2024-03-26", ["Rest and fluids.", "Rest and fluids.", 0], 5);
  });

  afterAll(async () => {
    await db?.close();
  });

  const load = (userId: string, query = {}, withExamples = true) =>
    loadQuality({
      db,
      actor: { userId },
      orgId,
      query: { from: "2024-03-18", to: "2024-03-31", ...query },
      now: NOW,
      withExamples,
    });

  it("owners see the practice: acceptance rate, most-edited sections with the draft and the signed text, weekly trend", async () => {
    const q = await load(u.owner);
    expect(q.summary).toMatchObject({
      notes_signed: 2,
      sections_signed: 4,
      acceptance_rate: 0.75,
      unchanged_notes_rate: 0.5,
      ratings: { count: 2, mean: 4.5 },
    });
    expect(q.sections[0]).toMatchObject({ template_id: "builtin:soap", section_key: "plan", signed: 2, accepted_rate: 0.5 });
    expect(q.sections[0]?.mean_edit_ratio).toBeCloseTo(10 / 19 / 2, 3);
    expect(q.examples).toEqual([
      expect.objectContaining({ section_key: "plan", draft: "Albuterol inhaler.x", signed: "Salbutamol inhaler." }),
    ]);
    expect(q.trend.map((w) => [w.week, w.sections])).toEqual([
      ["2024-03-18", 0],
      ["2024-03-25", 4],
    ]);
    // A week without a signed section has no mean (it read 100 %: LEAST ignores NULLs).
    expect(q.trend[0]?.mean_edit_ratio).toBeNull();
    expect(q.trend[1]?.mean_edit_ratio).not.toBeNull();
  });

  it("a clinician sees only their own notes whatever they ask; staff are refused; the export has no text", async () => {
    const own = await load(u.c2, { clinician_id: "all" });
    expect(own.clinician_id).toBe(u.c2);
    expect(own.summary).toMatchObject({ notes_signed: 1, acceptance_rate: 1 });
    const filtered = await load(u.owner, { clinician_id: u.c1 });
    expect(filtered.summary.notes_signed).toBe(1);
    await expect(load(u.staff)).rejects.toSatisfy((e) => isAppError(e) && e.code === "forbidden_role");
    const exported = JSON.stringify(qualityExport(await load(u.owner)));
    for (const phi of ["Albuterol", "Salbutamol", "Cough", "Zoé", u.c1, u.owner]) expect(exported).not.toContain(phi);
    expect(exported).toContain('"section_key":"plan"');
  });
});
