import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { withActor } from "#app/db/actor.server.ts";
import type { Database } from "#app/db/database.server.ts";
import { PLAN_CATALOGUE } from "#app/services/billing/plans.ts";
import { assertOrgCanStartRecording } from "#app/services/visits/recording-allowance.server.ts";
import { isAppError } from "#app/utils/app-error.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { createAuthUser, createOrg } from "#tests/setup/orgs.ts";

// Issue 4 "Plans and trial": the plan's monthly visits are counted in the organisation's calendar
// month, which starts at its own midnight on the 1st. Visits are planted at chosen instants and
// "now" is passed in, so nothing depends on when the suite runs.

describeEachDatabase("monthly recording allowance", (target) => {
  let db: Database;
  const LIMIT = PLAN_CATALOGUE.trial.visitsPerMonth ?? 0;

  beforeAll(async () => {
    db = await target.open();
  });

  afterAll(async () => {
    await db.close();
  });

  /** A trial organisation in `timezone` whose plan allowance was used up by visits that started recording at `at`. */
  async function orgWithVisits(timezone: string, at: string) {
    const owner = await createAuthUser(db);
    const orgId = await createOrg(db, [{ userId: owner.id, role: "owner" }]);
    await sql`update public.organizations set timezone = ${timezone} where id = ${orgId}`.execute(db.kysely);
    const { rows } = await sql<{ id: string }>`
      insert into public.patients (org_id, display_name) values (${orgId}, 'Allowance patient') returning id`.execute(db.kysely);
    await sql`insert into public.visits (org_id, patient_id, language, consent_at, status, recording_started_at)
              select ${orgId}, ${rows[0]?.id}, 'en', ${at}::timestamptz, 'transcribed', ${at}::timestamptz
              from generate_series(1, ${LIMIT})`.execute(db.kysely);
    return { orgId, userId: owner.id };
  }

  async function refusal(org: { orgId: string; userId: string }, now: string): Promise<string | null> {
    try {
      await withActor(db, { userId: org.userId, orgId: org.orgId }, (trx) =>
        assertOrgCanStartRecording(trx, org.orgId, new Date(now)),
      );
      return null;
    } catch (error) {
      if (isAppError(error)) return error.code;
      throw error;
    }
  }

  it("counts the visits of the organisation's month: 00:30 on the 1st in Paris is April there, March in UTC", async () => {
    // 1 April 2024, 00:30 in Paris (UTC+2): still 31 March in UTC.
    const paris = await orgWithVisits("Europe/Paris", "2024-03-31T22:30:00Z");
    expect(await refusal(paris, "2024-04-01T10:00:00Z")).toBe("visit_limit_reached");
    // A month later the allowance is back.
    expect(await refusal(paris, "2024-05-01T10:00:00Z")).toBeNull();
  });

  it("does not count last month's visits: 23:30 on 31 March in New York is March there, April in UTC", async () => {
    // 31 March 2024, 23:30 in New York (UTC-4): already 1 April in UTC.
    const newYork = await orgWithVisits("America/New_York", "2024-04-01T03:30:00Z");
    // 1 April, 08:00 in New York: a new month there.
    expect(await refusal(newYork, "2024-04-01T12:00:00Z")).toBeNull();
    // 31 March, 23:45 in New York: still the month those visits used up.
    expect(await refusal(newYork, "2024-04-01T03:45:00Z")).toBe("visit_limit_reached");
  });
});
