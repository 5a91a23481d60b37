import { billingErrors } from "./errors.server.ts";
import { canRecordVisit } from "./plans.ts";
import { type TrialFields, trialStatus } from "./trial.ts";

/**
 * Issue 4 "Plans and trial": once the trial has ended, new recordings are refused (402
 * `trial_ended`) until an owner chooses a plan; everything already recorded stays readable, so
 * only the start of a new recording calls this. Pass this month's visit count to check the
 * plan's monthly allowance as well (402 `visit_limit_reached`).
 */
export function assertCanStartRecording(org: TrialFields, now: Date, usage?: { visitsThisMonth: number }): void {
  if (trialStatus(org, now).state === "ended") throw billingErrors.trialEnded();
  if (usage && !canRecordVisit(org.plan, usage.visitsThisMonth)) throw billingErrors.visitLimitReached();
}
