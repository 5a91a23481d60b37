import { describe, expect, it } from "vitest";
import type { OrgPlan } from "#app/db/schema.ts";
import { assertCanStartRecording } from "#app/services/billing/entitlements.server.ts";
import { PLAN_CATALOGUE } from "#app/services/billing/plans.ts";
import { isTrialEnded, trialStatus } from "#app/services/billing/trial.ts";
import { AppError } from "#app/utils/app-error.ts";

// Issue 4 "Plans and trial": the trial's state at its edges, and the refusal of new recordings
// once it has ended.

const NOW = new Date("2026-03-10T12:00:00.000Z");
const HOUR = 60 * 60 * 1000;
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs).toISOString();

function thrown(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return null;
}

describe("trialStatus", () => {
  it("a fresh 14-day trial has 14 days left; the last hour still counts as 1 day", () => {
    expect(trialStatus({ plan: "trial", trial_ends_at: at(14 * 24 * HOUR) }, NOW)).toEqual({
      state: "active",
      endsAt: at(14 * 24 * HOUR),
      daysLeft: 14,
    });
    expect(trialStatus({ plan: "trial", trial_ends_at: at(13 * 24 * HOUR + 1) }, NOW)).toMatchObject({ daysLeft: 14 });
    expect(trialStatus({ plan: "trial", trial_ends_at: at(24 * HOUR) }, NOW)).toMatchObject({ daysLeft: 1 });
    expect(trialStatus({ plan: "trial", trial_ends_at: at(1) }, NOW)).toMatchObject({ state: "active", daysLeft: 1 });
  });

  it("ends exactly at trial_ends_at: at that instant and after it the trial is over", () => {
    expect(trialStatus({ plan: "trial", trial_ends_at: at(0) }, NOW)).toEqual({ state: "ended", endsAt: at(0) });
    expect(trialStatus({ plan: "trial", trial_ends_at: at(-1) }, NOW)).toEqual({ state: "ended", endsAt: at(-1) });
    expect(isTrialEnded({ plan: "trial", trial_ends_at: at(0) }, NOW)).toBe(true);
    expect(isTrialEnded({ plan: "trial", trial_ends_at: at(1) }, NOW)).toBe(false);
  });

  it("accepts Date values as the database returns them", () => {
    expect(trialStatus({ plan: "trial", trial_ends_at: new Date(NOW.getTime() + 2 * 24 * HOUR) }, NOW)).toMatchObject({
      state: "active",
      daysLeft: 2,
    });
  });

  it("a trial without an end date (or an unreadable one) counts as ended", () => {
    expect(trialStatus({ plan: "trial", trial_ends_at: null }, NOW)).toEqual({ state: "ended", endsAt: null });
    expect(trialStatus({ plan: "trial", trial_ends_at: "not a date" }, NOW)).toEqual({ state: "ended", endsAt: null });
  });

  it("a paid plan is never on trial, whatever trial_ends_at still says", () => {
    for (const plan of ["solo", "practice", "Clinic"] as const) {
      expect(trialStatus({ plan, trial_ends_at: at(-24 * HOUR) }, NOW)).toEqual({ state: "not-on-trial" });
      expect(trialStatus({ plan, trial_ends_at: null }, NOW)).toEqual({ state: "not-on-trial" });
      expect(trialStatus({ plan, trial_ends_at: at(24 * HOUR) }, NOW)).toEqual({ state: "not-on-trial" });
    }
  });
});

describe("assertCanStartRecording", () => {
  it("refuses with 402 trial_ended once the trial is over, and only then", () => {
    const error = thrown(() => assertCanStartRecording({ plan: "trial", trial_ends_at: at(0) }, NOW));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 402, code: "trial_ended" });
    expect(thrown(() => assertCanStartRecording({ plan: "trial", trial_ends_at: null }, NOW))).toMatchObject({
      code: "trial_ended",
    });
    expect(thrown(() => assertCanStartRecording({ plan: "trial", trial_ends_at: at(1) }, NOW))).toBeNull();
    expect(thrown(() => assertCanStartRecording({ plan: "solo", trial_ends_at: at(-HOUR) }, NOW))).toBeNull();
  });

  it("with this month's usage, refuses at the plan's visit allowance (402 visit_limit_reached); Clinic has none", () => {
    for (const plan of ["trial", "solo", "practice"] as const satisfies OrgPlan[]) {
      const limit = PLAN_CATALOGUE[plan].visitsPerMonth ?? Number.NaN;
      const org = { plan, trial_ends_at: at(24 * HOUR) };
      expect(
        thrown(() => assertCanStartRecording(org, NOW, { visitsThisMonth: limit - 1 })),
        plan,
      ).toBeNull();
      expect(
        thrown(() => assertCanStartRecording(org, NOW, { visitsThisMonth: limit })),
        plan,
      ).toMatchObject({
        status: 402,
        code: "visit_limit_reached",
      });
    }
    expect(
      thrown(() => assertCanStartRecording({ plan: "Clinic", trial_ends_at: null }, NOW, { visitsThisMonth: 1_000_000 })),
    ).toBeNull();
  });

  it("an ended trial is reported before the allowance", () => {
    expect(
      thrown(() => assertCanStartRecording({ plan: "trial", trial_ends_at: at(-1) }, NOW, { visitsThisMonth: 0 })),
    ).toMatchObject({
      code: "trial_ended",
    });
  });
});
