import { sql } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import { assertCanStartRecording } from "#app/services/billing/entitlements.server.ts";
import { orgErrors } from "#app/services/orgs/errors.server.ts";
import { zonedMonthStart } from "#app/utils/zoned-time.ts";

/**
 * Issue 4 "Plans and trial": a visit's first audio is the start of a recording, refused with 402
 * trial_ended once the trial is over, or visit_limit_reached past the plan's monthly visits
 * (counted as visits whose recording started this calendar month on the organisation's clock:
 * the allowance a practice reads as "this month" starts at its own midnight on the 1st, not UTC's).
 */
export async function assertOrgCanStartRecording(trx: ActorTransaction, orgId: string, now: Date): Promise<void> {
  const org = await trx
    .selectFrom("organizations")
    .select(["plan", "trial_ends_at", "timezone"])
    .where("id", "=", orgId)
    .executeTakeFirst();
  if (!org) throw orgErrors.orgNotFound();
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from public.visits
    where org_id = ${orgId}
      and recording_started_at >= ${zonedMonthStart(now, org.timezone)}`.execute(trx);
  assertCanStartRecording(org, now, { visitsThisMonth: rows[0]?.n ?? 0 });
}
