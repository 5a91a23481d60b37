import { sql } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { OrgPlan, OrgRole } from "#app/db/schema.ts";
import { PLAN_CATALOGUE } from "#app/services/billing/plans.ts";
import { trialStatus } from "#app/services/billing/trial.ts";
import { asActor, checkOrgId, type OrgServiceArgs, requireMemberRole } from "#app/services/orgs/context.server.ts";
import { AppError } from "#app/utils/app-error.ts";
import { todayInZone, zonedDayBounds, zonedMonthStart } from "#app/utils/zoned-time.ts";
import {
  type ClinicianFigures,
  type DayFigures,
  type Medians,
  rangeFigures,
  type Scope,
  type TodayStatus,
  type TodayVisit,
  todayByStatus,
  todayVisits,
} from "./aggregates.server.ts";
import { type Queues, queues } from "./queues.server.ts";
import { buildRange } from "./range.ts";
import { type DashboardRangeQuery, resolveDays } from "./schema.ts";

// Issue 16: everything /dashboard and GET /api/dashboard show, in one actor transaction under
// row-level security. Role rules (docs/permissions.md "Dashboard"): a clinician sees their own
// visits by default, owners and staff the practice's, each may pick a clinician or the practice;
// notes figures need note access (owners, clinicians); admins, who see no clinical data, get the
// plan and the pending invitations only. Coding figures (issue 13's cases) follow the visits'
// rule: every clinical role reads coding cases, so owners, clinicians and staff see them.

export const CLINICAL_ROLES: readonly OrgRole[] = ["owner", "clinician", "staff"];
export const NOTE_READER_ROLES: readonly OrgRole[] = ["owner", "clinician"];
const MANAGERS: readonly OrgRole[] = ["owner", "admin"];

export interface PlanBlock {
  plan: string;
  trial_days_left: number | null;
  seats_used: number;
  seats_allowed: number | null;
  visits_this_month: number;
  visit_limit: number | null;
}

export interface ClinicianOption {
  id: string;
  label: string;
}

export interface DashboardData {
  role: OrgRole;
  range: { from: string; to: string; timezone: string };
  /** The clinician the figures are about, or null for the whole practice. */
  clinician_id: string | null;
  clinicians: ClinicianOption[];
  visible: { clinical: boolean; notes: boolean; invitations: boolean };
  today: { date: string; by_status: Record<TodayStatus, number>; visits: TodayVisit[] } | null;
  queues: Queues;
  series: DayFigures[] | null;
  medians: Medians;
  per_clinician: ClinicianFigures[] | null;
  plan: PlanBlock;
}

export const dashboardErrors = {
  invalidClinician: () => new AppError(400, "invalid_clinician", "clinician_id is not a member of this organisation"),
};

export async function loadDashboardData(
  args: OrgServiceArgs & { orgId: string; query: DashboardRangeQuery; now?: Date },
): Promise<DashboardData> {
  checkOrgId(args.orgId);
  const now = args.now ?? new Date();
  return asActor(args, args.orgId, async (trx) => {
    const role = await requireMemberRole(trx, args.orgId, args.actor.userId);
    const org = await trx
      .selectFrom("organizations")
      .select(["plan", "trial_ends_at", "timezone"])
      .where("id", "=", args.orgId)
      .executeTakeFirstOrThrow();
    const timezone = org.timezone || "UTC";
    const { rows: members } = await sql<{ user_id: string; email: string | null; full_name: string | null; role: OrgRole }>`
      select user_id, email, full_name, role from public.org_member_directory(${args.orgId})`.execute(trx);

    const requested = args.query.clinician_id;
    if (requested && requested !== "all" && !members.some((m) => m.user_id === requested)) {
      throw dashboardErrors.invalidClinician();
    }
    const clinicianId = requested === "all" ? null : (requested ?? (role === "clinician" ? args.actor.userId : null));
    const visible = {
      clinical: CLINICAL_ROLES.includes(role),
      notes: NOTE_READER_ROLES.includes(role),
      invitations: MANAGERS.includes(role),
    };
    const scope: Scope = { orgId: args.orgId, clinicianId, notes: visible.notes };
    const { from, to } = resolveDays(args.query, timezone, now);
    const range = buildRange(from, to, timezone);
    const todayDay = todayInZone(timezone, now);
    const today = { day: todayDay, ...zonedDayBounds(todayDay, timezone) };

    const plan = await planBlock(trx, args.orgId, org, members.length, now, timezone);
    const queue = await queues(trx, { ...scope, clinical: visible.clinical, manager: visible.invitations }, now);
    const base = {
      role,
      range: { from, to, timezone },
      clinician_id: clinicianId,
      clinicians: members
        .filter((m) => m.role !== "admin")
        .map((m) => ({ id: m.user_id, label: m.full_name ?? m.email ?? m.user_id.slice(0, 8) })),
      visible,
      queues: queue,
      plan,
    };
    if (!visible.clinical) {
      return {
        ...base,
        today: null,
        series: null,
        medians: { stop_to_draft_s: null, draft_to_signed_s: null },
        per_clinician: null,
      };
    }
    const figures = await rangeFigures(trx, scope, range);
    return {
      ...base,
      today: {
        date: todayDay,
        by_status: await todayByStatus(trx, scope, today),
        visits: await todayVisits(trx, scope, today),
      },
      ...figures,
    };
  });
}

async function planBlock(
  trx: ActorTransaction,
  orgId: string,
  org: { plan: OrgPlan; trial_ends_at: Date | string | null },
  seatsUsed: number,
  now: Date,
  timezone: string,
): Promise<PlanBlock> {
  const definition = PLAN_CATALOGUE[org.plan];
  const trial = trialStatus(org, now);
  const { rows } = await sql<{ n: number | null }>`
    select public.org_visits_started_since(${orgId}::uuid, ${zonedMonthStart(now, timezone).toISOString()}::timestamptz) as n`.execute(
    trx,
  );
  return {
    plan: org.plan,
    trial_days_left: trial.state === "active" ? trial.daysLeft : trial.state === "ended" ? 0 : null,
    seats_used: seatsUsed,
    seats_allowed: definition.maxMembers,
    visits_this_month: rows[0]?.n ?? 0,
    visit_limit: definition.visitsPerMonth,
  };
}
