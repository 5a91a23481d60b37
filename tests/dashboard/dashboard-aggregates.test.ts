import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "#app/db/database.server.ts";
import type { OrgRole } from "#app/db/schema.ts";
import { generateActivity } from "#app/db/seed/activity.server.ts";
import * as dashboardRoute from "#app/routes/resources/api-dashboard.ts";
import { dashboardCsv } from "#app/services/dashboard/csv.ts";
import { loadDashboardData } from "#app/services/dashboard/dashboard.server.ts";
import { userContext } from "#app/services/session/user-context.ts";
import { TEST_SITE_URL } from "#tests/setup/auth.ts";
import { createTestContext, responseOf } from "#tests/setup/context.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { createAuthUser, createOrg } from "#tests/setup/orgs.ts";
import { plantVisit, seedPatient } from "./seed.ts";

// Issue 16: every dashboard aggregate on both databases, with days cut in the organisation's zone.
// Organisation A lives in Paris; "now" is 31 March 2024 at 23:45 there, the 23-hour day clocks
// jump from 02:00 to 03:00. Organisation B, in UTC, has visits on the same days that must never
// show in A's figures.

const NOW = new Date("2024-03-31T21:45:00Z");
type Who = OrgRole | "c2";

describeEachDatabase("dashboard aggregates", (target) => {
  let db: Database;
  let a: { orgId: string; users: Record<Who, string> };
  let b: { orgId: string; owner: string };

  beforeAll(async () => {
    db = await target.open();
    const users = {} as Record<Who, string>;
    for (const who of ["owner", "admin", "clinician", "c2", "staff"] as const) users[who] = (await createAuthUser(db)).id;
    const orgId = await createOrg(db, [
      { userId: users.owner, role: "owner" },
      { userId: users.admin, role: "admin" },
      { userId: users.clinician, role: "clinician" },
      { userId: users.c2, role: "clinician" },
      { userId: users.staff, role: "staff" },
    ]);
    await sql`update public.organizations set timezone = 'Europe/Paris', trial_ends_at = '2024-04-03T12:00:00Z'
              where id = ${orgId}`.execute(db.kysely);
    a = { orgId, users };
    const p = await seedPatient(db, orgId);
    const c1 = users.clinician;
    const c2 = users.c2;
    // 30 March, 23:30 in Paris (22:30 UTC): the 30th. Signed the next morning.
    await plantVisit(db, orgId, p, {
      clinician: c1,
      createdAt: "2024-03-30T22:30:00Z",
      status: "transcribed",
      audioMs: 120_000,
      uploadedAt: "2024-03-30T22:40:00Z",
      recordingStarted: true,
      note: { status: "signed", generatedAt: "2024-03-31T07:00:00Z", signedAt: "2024-03-31T08:00:00Z" },
    });
    // 31 March, 00:30 in Paris (still the 30th in UTC): today, a draft to sign.
    await plantVisit(db, orgId, p, {
      clinician: c1,
      createdAt: "2024-03-30T23:30:00Z",
      status: "transcribed",
      audioMs: 90_000,
      uploadedAt: "2024-03-30T23:50:00Z",
      recordingStarted: true,
      note: { status: "draft", generatedAt: "2024-03-31T00:00:00Z" },
    });
    // 31 March, 23:30 in Paris (UTC+2 since 03:00): the last half hour of the 23-hour day.
    await plantVisit(db, orgId, p, {
      clinician: c2,
      createdAt: "2024-03-31T21:30:00Z",
      status: "transcribed",
      audioMs: 30_000,
      recordingStarted: true,
    });
    // 1 April, 00:30 in Paris (still 31 March in UTC): tomorrow for A.
    await plantVisit(db, orgId, p, { clinician: c2, createdAt: "2024-03-31T22:30:00Z", status: "transcribed" });
    await plantVisit(db, orgId, p, { clinician: c2, createdAt: "2024-03-31T09:00:00Z", status: "failed" });
    await plantVisit(db, orgId, p, { clinician: c1, createdAt: "2024-03-31T10:00:00Z", status: "recording" });
    // One pending invitation; an expired and an accepted one do not count.
    for (const [email, expires, accepted] of [
      ["pending@example.test", "2024-04-05T00:00:00Z", null],
      ["expired@example.test", "2024-03-20T00:00:00Z", null],
      ["accepted@example.test", "2024-04-05T00:00:00Z", "2024-03-25T00:00:00Z"],
    ] as const) {
      await sql`insert into public.invitations (org_id, email, role, token_hash, expires_at, accepted_at)
                values (${orgId}, ${email}, 'clinician', ${`${orgId}-${email}`}, ${expires}::timestamptz, ${accepted}::timestamptz)`.execute(
        db.kysely,
      );
    }

    const bOwner = (await createAuthUser(db)).id;
    const bOrg = await createOrg(db, [{ userId: bOwner, role: "owner" }]);
    const bp = await seedPatient(db, bOrg, "Other practice patient");
    for (const at of ["2024-03-30T12:00:00Z", "2024-03-31T12:00:00Z", "2024-03-31T12:30:00Z"]) {
      await plantVisit(db, bOrg, bp, {
        clinician: bOwner,
        createdAt: at,
        status: "failed",
        audioMs: 600_000,
        note: { status: "draft", generatedAt: at },
      });
    }
    b = { orgId: bOrg, owner: bOwner };
  });

  afterAll(async () => {
    await db?.close();
  });

  const load = (who: Who, query: Record<string, string> = {}, orgId = a.orgId, userId = a.users[who]) =>
    loadDashboardData({ db, actor: { userId }, orgId, query, now: NOW });

  it("counts the owner's practice by the organisation's days: 23:30 and 00:30 local, the 23-hour DST day", async () => {
    const d = await load("owner", { from: "2024-03-29", to: "2024-04-01" });
    expect(d.range).toEqual({ from: "2024-03-29", to: "2024-04-01", timezone: "Europe/Paris" });
    expect(d.clinician_id).toBeNull();
    expect(d.series?.map((s) => [s.date, s.visits, s.recorded_minutes, s.notes_signed])).toEqual([
      ["2024-03-29", 0, 0, 0],
      ["2024-03-30", 1, 2, 0],
      ["2024-03-31", 4, 2, 1],
      ["2024-04-01", 1, 0, 0],
    ]);
    expect(d.today?.date).toBe("2024-03-31");
    expect(d.today?.by_status).toEqual({
      recording: 1,
      transcribing: 0,
      ready_for_note: 1,
      draft_to_sign: 1,
      signed: 0,
      failed: 1,
      coded: 0,
    });
    expect(d.today?.visits).toHaveLength(4);
    // Stop → draft: 8 h 20 min and 10 min; draft → signature: 1 h.
    expect(d.medians).toEqual({ stop_to_draft_s: (30_000 + 600) / 2, draft_to_signed_s: 3600 });
    expect(d.queues.drafts_to_sign?.count).toBe(1);
    expect(d.queues.failed_transcriptions?.count).toBe(1);
    expect(d.queues.invitations_pending).toBe(1);
    expect(d.queues.coding_open?.count).toBe(0);
    expect(d.plan).toEqual({
      plan: "trial",
      trial_days_left: 3,
      seats_used: 5,
      seats_allowed: 3,
      visits_this_month: 3,
      visit_limit: 50,
    });
    const perClinician = Object.fromEntries((d.per_clinician ?? []).map((c) => [c.clinician_id, [c.visits, c.notes_signed]]));
    expect(perClinician).toEqual({ [a.users.clinician]: [3, 1], [a.users.c2]: [3, 0] });
    // Nothing of B's: its patient never appears, its failed visits and drafts are not counted.
    expect(JSON.stringify(d)).not.toContain("Other practice patient");
  });

  it("a clinician sees their own by default, the practice on request; staff get no note figures; admins no clinical ones", async () => {
    const own = await load("clinician", { from: "2024-03-30", to: "2024-03-31" });
    expect(own.clinician_id).toBe(a.users.clinician);
    expect(own.series?.map((s) => s.visits)).toEqual([1, 2]);
    expect(own.today?.by_status).toMatchObject({ recording: 1, draft_to_sign: 1, failed: 0, ready_for_note: 0 });
    expect(own.queues.failed_transcriptions?.count).toBe(0);
    expect(own.queues.invitations_pending).toBeNull();
    const all = await load("clinician", { from: "2024-03-30", to: "2024-03-31", clinician_id: "all" });
    expect(all.series?.map((s) => s.visits)).toEqual([1, 4]);
    const other = await load("owner", { from: "2024-03-30", to: "2024-03-31", clinician_id: a.users.c2 });
    expect(other.series?.map((s) => s.visits)).toEqual([0, 2]);

    const staff = await load("staff", { range: "7" });
    expect(staff.range).toMatchObject({ from: "2024-03-25", to: "2024-03-31" });
    expect(staff.visible).toEqual({ clinical: true, notes: false, invitations: false });
    expect(staff.series?.every((s) => s.notes_signed === null)).toBe(true);
    expect(staff.queues.drafts_to_sign).toBeNull();
    expect(staff.medians).toEqual({ stop_to_draft_s: null, draft_to_signed_s: null });
    expect(staff.today?.by_status).toMatchObject({ ready_for_note: 2, draft_to_sign: 0 });

    const admin = await load("admin");
    expect(admin.today).toBeNull();
    expect(admin.series).toBeNull();
    expect(admin.queues.failed_transcriptions).toBeNull();
    expect(admin.queues.invitations_pending).toBe(1);
    expect(admin.plan.visits_this_month).toBe(3);
  });

  it("GET /api/dashboard: the documented shape, 400 on bad input, and no figure of another organisation", async () => {
    const get = async (userId: string, orgId: string, query: string) => {
      const context = createTestContext({ db, user: { id: userId, email: "x@example.test" } });
      context.set(userContext, { id: userId, email: "x@example.test" });
      const request = new Request(`${TEST_SITE_URL}/api/dashboard${query}`, { headers: { "x-org-id": orgId } });
      const res = await responseOf(() => dashboardRoute.loader({ request, context, params: {} } as never));
      return { status: res.status, body: await res.json() };
    };
    const ok = await get(a.users.owner, a.orgId, "?from=2024-03-30&to=2024-03-31");
    expect(ok.status).toBe(200);
    expect(ok.body.series.visits_per_day).toEqual([
      { date: "2024-03-30", count: 1 },
      { date: "2024-03-31", count: 4 },
    ]);
    expect(ok.body.series.notes_signed_per_day).toEqual([
      { date: "2024-03-30", count: 0 },
      { date: "2024-03-31", count: 1 },
    ]);
    // The route reads the real clock, by which the planted invitation (April 2024) has expired.
    expect(ok.body.queues).toEqual({ drafts_to_sign: 1, coding_open: 0, failed_transcriptions: 1, invitations_pending: 0 });
    expect(Object.keys(ok.body)).toEqual(expect.arrayContaining(["range", "today", "queues", "series", "medians", "plan"]));
    for (const bad of [
      "?from=2024-03-31&to=2024-03-30",
      "?from=2023-01-01&to=2024-03-31",
      "?from=2024-02-30",
      "?clinician_id=me",
    ]) {
      const res = await get(a.users.owner, a.orgId, bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.code, bad).toBe("validation_failed");
    }
    // B's owner: B's own figures only; naming A's clinician is 400, naming A is 404.
    const own = await get(b.owner, b.orgId, "?from=2024-03-30&to=2024-03-31");
    expect(own.body.series.visits_per_day.map((d: { count: number }) => d.count)).toEqual([1, 2]);
    expect(own.body.queues.failed_transcriptions).toBe(3);
    expect((await get(b.owner, b.orgId, `?clinician_id=${a.users.clinician}`)).body.code).toBe("invalid_clinician");
    expect((await get(b.owner, a.orgId, "")).status).toBe(404);
  });

  it("the generated activity (demo seed, bench) adds up on the dashboard, and its CSV says the same", async () => {
    const owner = (await createAuthUser(db)).id;
    const clinician = (await createAuthUser(db)).id;
    const orgId = await createOrg(db, [
      { userId: owner, role: "owner" },
      { userId: clinician, role: "clinician" },
    ]);
    const made = await generateActivity(db, {
      orgId,
      clinicians: [owner, clinician],
      days: 5,
      visitsPerDay: 4,
      patients: 3,
      now: NOW,
    });
    expect(made.visits).toBeGreaterThan(12);
    expect(made.notes).toBeGreaterThan(0);
    const d = await loadDashboardData({
      db,
      actor: { userId: owner },
      orgId,
      query: { from: "2024-03-20", to: "2024-04-01" },
      now: NOW,
    });
    const total = (d.series ?? []).reduce((n, day) => n + day.visits, 0);
    expect(total).toBe(made.visits);
    expect((d.per_clinician ?? []).reduce((n, c) => n + c.visits, 0)).toBe(made.visits);
    // Coding cases: each coded one counts once, on its day, and per clinician.
    expect(made.codingCases).toBeGreaterThan(0);
    const { rows: coded } = await sql<{ n: number }>`
      select count(*)::int as n from public.coding_cases where org_id = ${orgId} and coded_at is not null`.execute(db.kysely);
    expect(coded[0]?.n).toBeGreaterThan(0);
    expect((d.series ?? []).reduce((n, day) => n + day.coding_coded, 0)).toBe(coded[0]?.n);
    expect((d.per_clinician ?? []).reduce((n, c) => n + c.coding_coded, 0)).toBe(coded[0]?.n);
    const csv = dashboardCsv(d, "series").trim().split("\r\n");
    expect(csv[0]).toBe("date,visits,recorded_minutes,notes_signed,coding_coded,coding_exported");
    expect(csv.slice(1).reduce((n, line) => n + Number(line.split(",")[1]), 0)).toBe(made.visits);
    // Over a month a range's notes and cases find their visit by index probes, beyond by a hash of
    // the visits (aggregates.server.ts): a quarter holding the same activity gives the same figures.
    const quarter = await loadDashboardData({
      db,
      actor: { userId: owner },
      orgId,
      query: { from: "2024-01-02", to: "2024-04-01" },
      now: NOW,
    });
    expect(quarter.series?.length).toBe(91);
    expect(quarter.series?.slice(-13)).toEqual(d.series);
    expect(quarter.series?.slice(0, -13).every((day) => day.visits + (day.notes_signed ?? 0) + day.coding_coded === 0)).toBe(
      true,
    );
    expect(quarter.per_clinician).toEqual(d.per_clinician);
    expect(quarter.medians).toEqual(d.medians);
    expect(d.medians.draft_to_signed_s).not.toBeNull();
  });
});
