import { z } from "zod";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { Database } from "#app/db/database.server.ts";
import { recordAudit } from "#app/services/orgs/audit.server.ts";
import { asActor, checkOrgId, requireMemberRole } from "#app/services/orgs/context.server.ts";
import { orgErrors } from "#app/services/orgs/errors.server.ts";
import { applyPaidCheckout, checkCheckout } from "./apply-checkout.server.ts";
import type { StripeConfig } from "./config.server.ts";
import { billingErrors } from "./errors.server.ts";
import type { BillingProvider, PlanChangeArgs, ReturnArgs, WebhookArgs, WebhookOutcome } from "./provider.server.ts";
import { CheckoutSessionSchema, createCheckoutSession, retrieveCheckoutSession } from "./stripe-api.server.ts";
import { verifyStripeSignature } from "./stripe-signature.server.ts";

/** Events that carry a Checkout Session whose payment may now be confirmed. */
const CHECKOUT_EVENTS = new Set(["checkout.session.completed", "checkout.session.async_payment_succeeded"]);

const EventSchema = z
  .object({ id: z.string().min(1).max(255), type: z.string().min(1).max(100), data: z.object({ object: z.unknown() }) })
  .loose();

/** Stripe Checkout (issue 4 "Plans and trial"), chosen when STRIPE_SECRET_KEY is set. */
export function createStripeProvider(config: StripeConfig): BillingProvider {
  return {
    id: "stripe",
    canChoose: (plan) => Boolean(config.prices[plan]),
    startChange: (args) => startCheckout(config, args),
    completeReturn: (args) => completeReturn(config, args),
    handleWebhook: (args) => handleWebhook(config, args),
  };
}

async function requireOwner(args: PlanChangeArgs | ReturnArgs): Promise<void> {
  checkOrgId(args.orgId);
  await asActor(args, args.orgId, async (trx) => {
    const role = await requireMemberRole(trx, args.orgId, args.actor.userId);
    if (role !== "owner") throw orgErrors.forbiddenRole("Only an owner can change the plan");
  });
}

async function startCheckout(config: StripeConfig, args: PlanChangeArgs) {
  const price = config.prices[args.plan];
  if (!price) throw billingErrors.planNotAvailable();
  await requireOwner(args);
  const back = new URL(args.returnUrl);
  back.search = "";
  // Stripe fills in {CHECKOUT_SESSION_ID}; the braces must reach it unencoded.
  const successUrl = `${back.href}?stripe=success&session_id={CHECKOUT_SESSION_ID}`;
  const session = await createCheckoutSession(config, {
    price,
    orgId: args.orgId,
    userId: args.actor.userId,
    plan: args.plan,
    successUrl,
    cancelUrl: `${back.href}?stripe=cancelled`,
  });
  await asActor(args, args.orgId, (trx) =>
    recordAudit(trx, {
      orgId: args.orgId,
      actorId: args.actor.userId,
      action: "billing.checkout_started",
      entity: "organization",
      entityId: args.orgId,
      details: { plan: args.plan, provider: "stripe", checkout_session: session.id },
      meta: args.meta,
    }),
  );
  return { kind: "redirect" as const, url: session.url ?? "" };
}

async function completeReturn(config: StripeConfig, args: ReturnArgs) {
  const outcome = args.params.get("stripe");
  if (outcome === "cancelled") return { kind: "cancelled" as const };
  if (outcome !== "success") return { kind: "none" as const };
  await requireOwner(args);
  const session = await retrieveCheckoutSession(config, args.params.get("session_id") ?? "");
  if (!session) throw billingErrors.checkoutNotFound();
  const check = checkCheckout(session);
  if (!check.ok && check.reason === "foreign") throw billingErrors.checkoutNotFound();
  if (!check.ok) throw billingErrors.checkoutIncomplete();
  // Another organisation's session is a 404 like an unknown one (its existence is not revealed).
  if (check.checkout.orgId !== args.orgId) throw billingErrors.checkoutNotFound();
  const { plan } = await asActor(args, args.orgId, (trx) =>
    applyPaidCheckout(trx, check.checkout, { actorId: args.actor.userId, meta: args.meta }),
  );
  return { kind: "changed" as const, plan };
}

async function handleWebhook(config: StripeConfig, args: WebhookArgs): Promise<WebhookOutcome> {
  if (!config.webhookSecret) throw billingErrors.webhookNotConfigured();
  if (!verifyStripeSignature(args.rawBody, args.headers.get("stripe-signature"), config.webhookSecret, args.now)) {
    throw billingErrors.invalidSignature();
  }
  let raw: unknown;
  try {
    raw = JSON.parse(args.rawBody);
  } catch {
    throw billingErrors.badJson();
  }
  const event = EventSchema.safeParse(raw);
  if (!event.success) throw billingErrors.badJson();
  const ignored: WebhookOutcome = { received: true, duplicate: false, applied: false };
  if (!CHECKOUT_EVENTS.has(event.data.type)) return ignored;
  const session = CheckoutSessionSchema.safeParse(event.data.data.object);
  if (!session.success) return ignored;
  const check = checkCheckout(session.data);
  // Not a checkout Murmur started, or not paid yet (async payments send a later event): acknowledged,
  // so Stripe stops retrying, and left alone.
  if (!check.ok) return ignored;
  const { checkout } = check;
  return asSystem(args.db, async (trx) => {
    const org = await trx.selectFrom("organizations").select("id").where("id", "=", checkout.orgId).executeTakeFirst();
    if (!org) return ignored;
    const first = await trx
      .insertInto("billing_events")
      .values({ provider: "stripe", external_id: event.data.id, org_id: checkout.orgId, type: event.data.type })
      .onConflict((oc) => oc.columns(["provider", "external_id"]).doNothing())
      .returning("external_id")
      .executeTakeFirst();
    if (!first) return { received: true, duplicate: true, applied: false };
    const { applied } = await applyPaidCheckout(trx, checkout, { actorId: checkout.userId });
    return { received: true, duplicate: false, applied };
  });
}

/**
 * A webhook acts for nobody signed in, so it runs on the owner connection, the path 0003's
 * organizations_guard leaves open for billing webhooks. Only a verified Stripe delivery gets here,
 * and it only touches the organisation its signed payload names.
 */
function asSystem<T>(db: Database, fn: (trx: ActorTransaction) => Promise<T>): Promise<T> {
  return db.kysely.transaction().execute(fn);
}
