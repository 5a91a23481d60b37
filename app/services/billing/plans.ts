import type { OrgPlan } from "#app/db/schema.ts";

// The plan catalogue (issue 4 "Plans and trial"): the one source of the numbers /pricing shows,
// the billing page offers and enforcement checks. SPEC §9 leaves limits and prices "not shown";
// these are Murmur's own. The words for each plan live in locales/*/marketing.json "pricing".
// Shared by server and browser code, so nothing here may import server modules.

/** Issue 4: a new organisation starts a 14-day trial (0003_organizations.sql sets the same interval). */
export const TRIAL_DAYS = 14;

/** Plans an owner can choose; the trial is where every organisation starts, never a choice. */
export const PAID_PLANS = ["solo", "practice", "Clinic"] as const satisfies readonly OrgPlan[];
export type PaidPlan = (typeof PAID_PLANS)[number];

/** What a plan adds, as message keys under marketing.json "pricing.features". */
export const PLAN_FEATURES = [
  "noCard",
  "scribe",
  "chartingAndQa",
  "emailSupport",
  "sharedTemplates",
  "teamRoles",
  "auditLog",
  "pmsIntegration",
  "audioRetention",
  "prioritySupport",
] as const;
export type PlanFeature = (typeof PLAN_FEATURES)[number];

export interface PlanDefinition {
  id: OrgPlan;
  /** Members an organisation on this plan may have; null is unlimited. */
  maxMembers: number | null;
  /** Visits recorded per calendar month; null is unlimited. */
  visitsPerMonth: number | null;
  /** Price in whole US dollars a month; 0 is free, null is quoted on request. */
  monthlyPriceUsd: number | null;
  /** The plan whose features this one includes as well. */
  includes: OrgPlan | null;
  /** Features this plan adds to the one it includes. */
  features: readonly PlanFeature[];
}

export const PLAN_CATALOGUE: Readonly<Record<OrgPlan, PlanDefinition>> = {
  trial: {
    id: "trial",
    maxMembers: 3,
    visitsPerMonth: 50,
    monthlyPriceUsd: 0,
    includes: "practice",
    features: ["noCard"],
  },
  solo: {
    id: "solo",
    maxMembers: 1,
    visitsPerMonth: 300,
    monthlyPriceUsd: 49,
    includes: null,
    features: ["scribe", "chartingAndQa", "emailSupport"],
  },
  practice: {
    id: "practice",
    maxMembers: 10,
    visitsPerMonth: 1500,
    monthlyPriceUsd: 129,
    includes: "solo",
    features: ["sharedTemplates", "teamRoles", "auditLog"],
  },
  Clinic: {
    id: "Clinic",
    maxMembers: null,
    visitsPerMonth: null,
    monthlyPriceUsd: null,
    includes: "practice",
    features: ["pmsIntegration", "audioRetention", "prioritySupport"],
  },
};

/** The order plans are shown in (/pricing, the billing page). */
export const PLAN_ORDER: readonly OrgPlan[] = ["trial", "solo", "practice", "Clinic"];

export function isPaidPlan(value: unknown): value is PaidPlan {
  return typeof value === "string" && (PAID_PLANS as readonly string[]).includes(value);
}

/** Every feature of a plan, its included plans' too (the trial has all of Practice's). */
export function planFeatures(plan: OrgPlan): PlanFeature[] {
  const seen = new Set<OrgPlan>();
  const out: PlanFeature[] = [];
  for (let current: OrgPlan | null = plan; current && !seen.has(current); current = PLAN_CATALOGUE[current].includes) {
    seen.add(current);
    out.unshift(...PLAN_CATALOGUE[current].features);
  }
  return out;
}

export function planHasFeature(plan: OrgPlan, feature: PlanFeature): boolean {
  return planFeatures(plan).includes(feature);
}

/** Whether an organisation on `plan` with `members` members (and pending invitations) may add one more. */
export function canAddMember(plan: OrgPlan, members: number): boolean {
  const max = PLAN_CATALOGUE[plan].maxMembers;
  return max === null || members < max;
}

/** Whether an organisation on `plan` that recorded `visits` visits this month may record another. */
export function canRecordVisit(plan: OrgPlan, visits: number): boolean {
  const max = PLAN_CATALOGUE[plan].visitsPerMonth;
  return max === null || visits < max;
}
