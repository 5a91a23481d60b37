import { sql } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { OrgPlan } from "#app/db/schema.ts";
import { isUuid } from "#app/services/auth/uuid.server.ts";
import { recordAudit } from "#app/services/orgs/audit.server.ts";
import type { RequestMeta } from "#app/services/orgs/context.server.ts";
import { isPaidPlan, type PaidPlan } from "./plans.ts";
import type { CheckoutSession } from "./stripe-api.server.ts";

/** A Checkout Session that is paid, with the organisation, plan and owner our own session creation wrote into it. */
export interface PaidCheckout {
  sessionId: string;
  orgId: string;
  plan: PaidPlan;
  /** The owner who started the checkout: the audit log's actor. */
  userId: string;
  customerId: string | null;
  subscriptionId: string | null;
}

export type CheckoutCheck = { ok: true; checkout: PaidCheckout } | { ok: false; reason: "foreign" | "unpaid" };

/**
 * Reads what a session says about itself. It must name one organisation in both places Murmur
 * wrote it (client_reference_id and metadata.org_id) and be complete and paid (or need no payment,
 * e.g. a 100 % coupon); anything else is someone else's session or not finished.
 */
export function checkCheckout(session: CheckoutSession): CheckoutCheck {
  const orgId = session.client_reference_id ?? "";
  const meta = session.metadata ?? {};
  if (!isUuid(orgId) || meta.org_id !== orgId || !isPaidPlan(meta.plan) || !isUuid(meta.user_id ?? "")) {
    return { ok: false, reason: "foreign" };
  }
  const paid = session.payment_status === "paid" || session.payment_status === "no_payment_required";
  if (session.status !== "complete" || !paid) return { ok: false, reason: "unpaid" };
  return {
    ok: true,
    checkout: {
      sessionId: session.id,
      orgId,
      plan: meta.plan,
      userId: meta.user_id ?? "",
      customerId: idOf(session.customer),
      subscriptionId: idOf(session.subscription),
    },
  };
}

function idOf(value: CheckoutSession["customer"]): string | null {
  if (!value) return null;
  return typeof value === "string" ? value : value.id;
}

/**
 * Moves the organisation to the checkout's plan once per session: the (stripe, session id) row
 * is the idempotency key shared by the return page and the webhook, so whichever comes second
 * (or a replay) changes nothing and logs nothing. Runs in the caller's transaction: as the owner
 * under RLS for a return (the audit actor is that owner), as the owner connection for a webhook
 * (the actor is the owner who started the checkout).
 */
export async function applyPaidCheckout(
  trx: ActorTransaction,
  checkout: PaidCheckout,
  audit: { actorId: string; meta?: RequestMeta },
): Promise<{ applied: boolean; plan: OrgPlan }> {
  const claimed = await trx
    .insertInto("billing_events")
    .values({
      provider: "stripe",
      external_id: checkout.sessionId,
      org_id: checkout.orgId,
      type: "checkout.session.applied",
      details: sql<Record<string, unknown>>`${JSON.stringify({
        plan: checkout.plan,
        customer: checkout.customerId,
        subscription: checkout.subscriptionId,
      })}::jsonb`,
    })
    .onConflict((oc) => oc.columns(["provider", "external_id"]).doNothing())
    .returning("external_id")
    .executeTakeFirst();
  const current = await trx
    .selectFrom("organizations")
    .select("plan")
    .where("id", "=", checkout.orgId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (!claimed || current.plan === checkout.plan) return { applied: false, plan: current.plan };
  await trx.updateTable("organizations").set({ plan: checkout.plan }).where("id", "=", checkout.orgId).execute();
  await recordAudit(trx, {
    orgId: checkout.orgId,
    actorId: audit.actorId,
    action: "org.plan_changed",
    entity: "organization",
    entityId: checkout.orgId,
    details: { from: current.plan, to: checkout.plan, provider: "stripe", checkout_session: checkout.sessionId },
    meta: audit.meta,
  });
  return { applied: true, plan: checkout.plan };
}
