import type { OrgPlan } from "#app/db/schema.ts";

// Trial state (issue 4 "Plans and trial"). Shared by the server (enforcement, pages) and the
// browser (the banner), so it takes `now` instead of reading the clock.

const DAY_MS = 24 * 60 * 60 * 1000;

export type TrialStatus =
  | { state: "active"; endsAt: string; daysLeft: number }
  | { state: "ended"; endsAt: string | null }
  | { state: "not-on-trial" };

export interface TrialFields {
  plan: OrgPlan;
  trial_ends_at: string | Date | null;
}

/**
 * Where an organisation stands: a paid plan is never on trial whatever `trial_ends_at` still says;
 * a trial ends at `trial_ends_at` exactly. A trial without an end date counts as ended (every
 * organisation is created with one, so this fails closed rather than granting an unlimited trial).
 * `daysLeft` rounds up: 14 days from creation reads "14 days left", the last hours "1 day left".
 */
export function trialStatus(org: TrialFields, now: Date): TrialStatus {
  if (org.plan !== "trial") return { state: "not-on-trial" };
  if (org.trial_ends_at === null) return { state: "ended", endsAt: null };
  const endsAt = new Date(org.trial_ends_at);
  if (Number.isNaN(endsAt.getTime())) return { state: "ended", endsAt: null };
  const left = endsAt.getTime() - now.getTime();
  if (left <= 0) return { state: "ended", endsAt: endsAt.toISOString() };
  return { state: "active", endsAt: endsAt.toISOString(), daysLeft: Math.ceil(left / DAY_MS) };
}

export function isTrialEnded(org: TrialFields, now: Date): boolean {
  return trialStatus(org, now).state === "ended";
}
