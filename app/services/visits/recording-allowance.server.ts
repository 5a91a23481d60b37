import { sql } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import { assertCanStartRecording } from "#app/services/billing/entitlements.server.ts";
import { orgErrors } from "#app/services/orgs/errors.server.ts";

/**
 * Issue 4 "Plans and trial": a visit's first audio is the start of a recording, refused with 402
 * trial_ended once the trial is over, or visit_limit_reached past the plan's monthly visits
 * (counted as visits whose recording started this calendar month, UTC).
 */
export async function assertOrgCanStartRecording(trx: ActorTransaction, orgId: string, now: Date): Promise<void> {
  const org = await trx.selectFrom("organizations").select(["plan", "trial_ends_at"]).where("id", "=", orgId).executeTakeFirst();
  if (!org) throw orgErrors.orgNotFound();
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from public.visits
    where org_id = ${orgId}
      and recording_started_at >= date_trunc('month', ${now.toISOString()}::timestamptz at time zone 'UTC') at time zone 'UTC'`.execute(
    trx,
  );
  assertCanStartRecording(org, now, { visitsThisMonth: rows[0]?.n ?? 0 });
}
