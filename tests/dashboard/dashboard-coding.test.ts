import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "#app/db/database.server.ts";
import * as dashboardRoute from "#app/routes/resources/api-dashboard.ts";
import { dashboardCsv } from "#app/services/dashboard/csv.ts";
import { loadDashboardData } from "#app/services/dashboard/dashboard.server.ts";
import { loadQuality, qualityExport } from "#app/services/dashboard/quality-report.server.ts";
import { userContext } from "#app/services/session/user-context.ts";
import { TEST_SITE_URL } from "#tests/setup/auth.ts";
import { createTestContext, responseOf } from "#tests/setup/context.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { createAuthUser, createOrg } from "#tests/setup/orgs.ts";
import { plantCodingCase, plantVisit, seedPatient } from "./seed.ts";

// Issue 16 with issue 13's coding cases: "coded" today, the open-cases queue, cases coded and
// exported per day and per clinician, and the coding quality telemetry — on both databases.
// Organisation A lives in Paris; "now" is 27 October 2024 at 23:45 there, the 25-hour day clocks
// fall back from 03:00 to 02:00. Organisation B, in UTC, codes on the same days and must never
// show in A's figures.

const NOW = new Date("2024-10-27T22:45:00Z");
const signedNote = (at: string) => ({ status: "signed" as const, generatedAt: at, signedAt: at });

describeEachDatabase("dashboard coding", (target) => {
  let db: Database;
  const u = { owner: "", admin: "", c1: "", c2: "", staff: "" };
  let orgId = "";
  let openCases: string[] = [];
  let b = { orgId: "", owner: "" };

  beforeAll(async () => {
    db = await target.open();
    for (const k of Object.keys(u) as (keyof typeof u)[]) u[k] = (await createAuthUser(db)).id;
    orgId = await createOrg(db, [
      { userId: u.owner, role: "owner" },
      { userId: u.admin, role: "admin" },
      { userId: u.c1, role: "clinician" },
      { userId: u.c2, role: "clinician" },
      { userId: u.staff, role: "staff" },
    ]);
    await sql`update public.organizations set timezone = 'Europe/Paris' where id = ${orgId}`.execute(db.kysely);
    const p = await seedPatient(db, orgId, "Coding patient");
    // V1, c1: 26 October at 23:30 in Paris (UTC+2). Coded at 23:45 local (the 26th), exported at
    // 00:15 local — the 27th in Paris, still the 26th in UTC.
    const v1 = await plantVisit(db, orgId, p, {
      clinician: u.c1,
      createdAt: "2024-10-26T21:30:00Z",
      status: "transcribed",
      note: signedNote("2024-10-26T21:40:00Z"),
    });
    await plantCodingCase(db, orgId, v1, {
      status: "exported",
      createdAt: "2024-10-26T21:41:00Z",
      codedAt: "2024-10-26T21:45:00Z",
      exportedAt: "2024-10-26T22:15:00Z",
      lines: [
        { state: "accepted" },
        { state: "accepted", editedFrom: "R69" },
        { state: "rejected", reason: "Not supported by the note" },
      ],
    });
    // V2, c2: 27 October at 00:30 in Paris (the 26th in UTC): today's. Coded at 23:30 local, UTC+1.
    const v2 = await plantVisit(db, orgId, p, {
      clinician: u.c2,
      createdAt: "2024-10-26T22:30:00Z",
      status: "transcribed",
      note: signedNote("2024-10-27T08:00:00Z"),
    });
    await plantCodingCase(db, orgId, v2, {
      status: "coded",
      createdAt: "2024-10-27T08:05:00Z",
      codedAt: "2024-10-27T22:30:00Z",
      lines: [
        { state: "rejected", reason: "  not supported   by the note " },
        { state: "rejected", reason: "wrong_code" },
        { state: "accepted", origin: "manual" },
      ],
    });
    // V3, c1: today, signed, its case still open since 12:00 local.
    const v3 = await plantVisit(db, orgId, p, {
      clinician: u.c1,
      createdAt: "2024-10-27T10:00:00Z",
      status: "transcribed",
      note: signedNote("2024-10-27T10:30:00Z"),
    });
    const c3 = await plantCodingCase(db, orgId, v3, {
      status: "open",
      createdAt: "2024-10-27T11:00:00Z",
      lines: [{ state: "suggested" }],
    });
    // V4, c2: a week ago, its case opened on the 21st and reopened today after an amendment: it
    // waits since the reopening, so it queues after V3's.
    const v4 = await plantVisit(db, orgId, p, {
      clinician: u.c2,
      createdAt: "2024-10-20T10:00:00Z",
      status: "transcribed",
      note: signedNote("2024-10-20T10:30:00Z"),
    });
    const c4 = await plantCodingCase(db, orgId, v4, {
      status: "open",
      createdAt: "2024-10-21T10:00:00Z",
      codedAt: "2024-10-21T11:00:00Z",
      reopenedAt: "2024-10-27T12:00:00Z",
    });
    openCases = [c3, c4];

    const bOwner = (await createAuthUser(db)).id;
    const bOrg = await createOrg(db, [{ userId: bOwner, role: "owner" }]);
    const bp = await seedPatient(db, bOrg, "Other practice patient");
    for (const [at, status] of [
      ["2024-10-26T12:00:00Z", "exported"],
      ["2024-10-27T12:00:00Z", "coded"],
      ["2024-10-27T13:00:00Z", "open"],
    ] as const) {
      const v = await plantVisit(db, bOrg, bp, { clinician: bOwner, createdAt: at, status: "transcribed", note: signedNote(at) });
      await plantCodingCase(db, bOrg, v, {
        status,
        createdAt: at,
        codedAt: status === "open" ? undefined : at,
        exportedAt: status === "exported" ? at : undefined,
        lines: [
          {
            state: status === "open" ? "suggested" : "rejected",
            reason: status === "open" ? undefined : "Other practice reason",
          },
        ],
      });
    }
    b = { orgId: bOrg, owner: bOwner };
  });

  afterAll(async () => {
    await db?.close();
  });

  const load = (userId: string, query: Record<string, string> = {}, org = orgId) =>
    loadDashboardData({ db, actor: { userId }, orgId: org, query, now: NOW });

  it("counts cases coded and exported by the organisation's days (23:30 local, the 25-hour DST day) and today's coded visits", async () => {
    const d = await load(u.owner, { from: "2024-10-26", to: "2024-10-27" });
    expect(d.series?.map((s) => [s.date, s.visits, s.coding_coded, s.coding_exported])).toEqual([
      ["2024-10-26", 1, 1, 0],
      ["2024-10-27", 2, 1, 1],
    ]);
    // V2's case is coded: the visit reads "coded"; V3's case is open: its visit stays "signed".
    expect(d.today?.by_status).toMatchObject({ coded: 1, signed: 1, ready_for_note: 0 });
    expect(d.today?.visits.find((v) => v.stage === "coded")?.created_at).toBe("2024-10-26T22:30:00.000Z");
    const perClinician = Object.fromEntries(
      (d.per_clinician ?? []).map((c) => [c.clinician_id, [c.coding_coded, c.coding_exported]]),
    );
    expect(perClinician).toEqual({ [u.c1]: [1, 1], [u.c2]: [1, 0] });
    // Open cases, oldest first: V4's waits since its reopening, after V3's.
    expect(d.queues.coding_open?.count).toBe(2);
    expect(d.queues.coding_open?.oldest.map((c) => c.case_id)).toEqual(openCases);
    expect(d.queues.coding_open?.oldest[0]).toMatchObject({ patient_name: "Coding patient", since: "2024-10-27T11:00:00.000Z" });
    expect(JSON.stringify(d)).not.toContain("Other practice");

    const csv = dashboardCsv(d, "series").trim().split("\r\n");
    expect(csv).toEqual([
      "date,visits,recorded_minutes,notes_signed,coding_coded,coding_exported",
      "2024-10-26,1,0,1,1,0",
      "2024-10-27,2,0,2,1,1",
    ]);
  });

  it("follows the clinician filter and the roles: staff see coding, admins no clinical figure", async () => {
    const own = await load(u.c1, { from: "2024-10-26", to: "2024-10-27" });
    expect(own.clinician_id).toBe(u.c1);
    expect(own.series?.map((s) => [s.coding_coded, s.coding_exported])).toEqual([
      [1, 0],
      [0, 1],
    ]);
    expect(own.queues.coding_open?.oldest.map((c) => c.case_id)).toEqual([openCases[0]]);
    expect(own.today?.by_status.coded).toBe(0);
    const c2 = await load(u.owner, { from: "2024-10-26", to: "2024-10-27", clinician_id: u.c2 });
    expect(c2.queues.coding_open?.count).toBe(1);
    expect(c2.today?.by_status.coded).toBe(1);

    const staff = await load(u.staff, { range: "7" });
    expect(staff.queues.coding_open?.count).toBe(2);
    expect(staff.today?.by_status.coded).toBe(1);
    // V4's case was coded on the 21st before its reopening: that day's work still counts.
    expect(staff.series?.reduce((n, s) => n + s.coding_coded, 0)).toBe(3);

    const admin = await load(u.admin);
    expect(admin.queues.coding_open).toBeNull();
    expect(admin.series).toBeNull();
  });

  it("GET /api/dashboard carries the coding figures and no other organisation's", async () => {
    const get = async (userId: string, org: string, query: string) => {
      const context = createTestContext({ db, user: { id: userId, email: "x@example.test" } });
      context.set(userContext, { id: userId, email: "x@example.test" });
      const request = new Request(`${TEST_SITE_URL}/api/dashboard${query}`, { headers: { "x-org-id": org } });
      const res = await responseOf(() => dashboardRoute.loader({ request, context, params: {} } as never));
      return { status: res.status, body: await res.json() };
    };
    const ok = await get(u.owner, orgId, "?from=2024-10-26&to=2024-10-27");
    expect(ok.status).toBe(200);
    expect(ok.body).not.toHaveProperty("coding_available");
    expect(ok.body.queues.coding_open).toBe(2);
    expect(ok.body.series.coding_coded_per_day).toEqual([
      { date: "2024-10-26", count: 1 },
      { date: "2024-10-27", count: 1 },
    ]);
    expect(ok.body.series.coding_exported_per_day).toEqual([
      { date: "2024-10-26", count: 0 },
      { date: "2024-10-27", count: 1 },
    ]);
    const other = await get(b.owner, b.orgId, "?from=2024-10-26&to=2024-10-27");
    expect(other.body.queues.coding_open).toBe(1);
    expect(other.body.series.coding_coded_per_day.map((d: { count: number }) => d.count)).toEqual([1, 1]);
    expect(other.body.series.coding_exported_per_day.map((d: { count: number }) => d.count)).toEqual([1, 0]);
  });

  it("quality: suggestions accepted, edited, rejected and added, the reasons grouped, and an export without them", async () => {
    const q = await loadQuality({
      db,
      actor: { userId: u.owner },
      orgId,
      query: { from: "2024-10-26", to: "2024-10-27" },
      now: NOW,
      withExamples: true,
    });
    expect(q.coding).toEqual({
      cases_coded: 2,
      suggested: 5,
      accepted: 1,
      edited: 1,
      rejected: 3,
      added: 1,
      acceptance_rate: 0.2,
    });
    expect(q.reject_reasons.map((r) => [r.reason.toLowerCase(), r.count])).toEqual([
      ["not supported by the note", 2],
      ["wrong_code", 1],
    ]);
    const exported = qualityExport(q);
    expect(exported.coding).toMatchObject({
      rejected: 3,
      reject_reasons: { not_documented: 0, not_addressed: 0, wrong_code: 1, duplicate: 0, other: 0 },
      reject_reasons_free_text: 2,
    });
    expect(JSON.stringify(exported)).not.toMatch(/supported|Other practice/i);

    // A clinician: their own cases only; a range that starts on the 27th leaves out V1's case.
    const own = await loadQuality({
      db,
      actor: { userId: u.c1 },
      orgId,
      query: { from: "2024-10-26", to: "2024-10-27" },
      now: NOW,
    });
    expect(own.coding).toMatchObject({
      cases_coded: 1,
      suggested: 3,
      accepted: 1,
      edited: 1,
      rejected: 1,
      acceptance_rate: 0.333,
    });
    const today = await loadQuality({
      db,
      actor: { userId: u.owner },
      orgId,
      query: { from: "2024-10-27", to: "2024-10-27" },
      now: NOW,
    });
    expect(today.coding).toMatchObject({ cases_coded: 1, suggested: 2, rejected: 2, added: 1 });
  });
});
