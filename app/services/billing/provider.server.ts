import type { OrgPlan } from "#app/db/schema.ts";
import type { OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import type { PaidPlan } from "./plans.ts";

/** An owner's request to move their organisation to a paid plan. */
export interface PlanChangeArgs extends OrgServiceArgs {
  orgId: string;
  plan: PaidPlan;
  /** The billing page's absolute URL in the owner's language: where a hosted checkout sends them back. */
  returnUrl: string;
}

/** Either the plan changed at once, or the owner must finish elsewhere (a hosted checkout). */
export type PlanChangeStart = { kind: "changed"; plan: OrgPlan } | { kind: "redirect"; url: string };

/** The query a provider's checkout sent the owner back with (`?stripe=success&session_id=…`). */
export interface ReturnArgs extends OrgServiceArgs {
  orgId: string;
  params: URLSearchParams;
}

export type ReturnOutcome =
  /** The organisation is now on `plan` (applied now, or earlier by a webhook). */
  | { kind: "changed"; plan: OrgPlan }
  | { kind: "cancelled" }
  /** Nothing this provider recognises. */
  | { kind: "none" };

export interface WebhookArgs {
  db: OrgServiceArgs["db"];
  rawBody: string;
  headers: Headers;
  now: Date;
}

export type WebhookOutcome = { received: true; duplicate: boolean; applied: boolean };

/**
 * How a plan changes (issue 4 "Plans and trial"): the embedded `manual` provider changes it at
 * once; `stripe` goes through Checkout and applies the plan when the payment is confirmed (return
 * or webhook). Services refuse non-owners with 403 and non-members with 404.
 */
export interface BillingProvider {
  id: "manual" | "stripe";
  /** Whether this provider can move an organisation to `plan` (Stripe needs a price for it). */
  canChoose(plan: PaidPlan): boolean;
  startChange(args: PlanChangeArgs): Promise<PlanChangeStart>;
  completeReturn(args: ReturnArgs): Promise<ReturnOutcome>;
  handleWebhook?(args: WebhookArgs): Promise<WebhookOutcome>;
}
