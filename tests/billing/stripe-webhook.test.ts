import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import type { Database } from "#app/db/database.server.ts";
import * as webhookRoute from "#app/routes/resources/api-billing-stripe-webhook.ts";
import { createStripeProvider } from "#app/services/billing/stripe-provider.server.ts";
import { verifyStripeSignature } from "#app/services/billing/stripe-signature.server.ts";
import { TEST_SITE_URL } from "#tests/setup/auth.ts";
import { createTestContext, responseOf } from "#tests/setup/context.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { createOrgWithEveryRole } from "#tests/setup/orgs.ts";
import { checkoutEvent, FAKE_STRIPE_KEY, type FakeStripe, startFakeStripe, stripeSignature } from "./fake-stripe.ts";

// Issue 4 "Plans and trial": POST /api/billing/stripe/webhook verifies Stripe-Signature over the raw
// body with STRIPE_WEBHOOK_SECRET, applies a paid checkout's plan, and processes each event id once.

const SECRET = "whsec_murmur_test";

it("verifyStripeSignature: the right secret and body within 5 minutes, in any v1 position; nothing else", () => {
  const now = new Date("2026-03-10T12:00:00Z");
  const body = '{"id":"evt_1"}';
  const good = stripeSignature(body, SECRET, now);
  expect(verifyStripeSignature(body, good, SECRET, now)).toBe(true);
  expect(verifyStripeSignature(body, good, SECRET, new Date(now.getTime() + 299_000))).toBe(true);
  expect(verifyStripeSignature(body, `${good.split(",")[0]},v1=${"0".repeat(64)},${good.split(",")[1]}`, SECRET, now)).toBe(true);
  expect(verifyStripeSignature(body, good, SECRET, new Date(now.getTime() + 301_000))).toBe(false);
  expect(verifyStripeSignature(`${body} `, good, SECRET, now)).toBe(false);
  expect(verifyStripeSignature(body, good, "whsec_other", now)).toBe(false);
  expect(verifyStripeSignature(body, stripeSignature(body, "whsec_other", now), SECRET, now)).toBe(false);
  expect(verifyStripeSignature(body, null, SECRET, now)).toBe(false);
  expect(verifyStripeSignature(body, "garbage", SECRET, now)).toBe(false);
  expect(verifyStripeSignature(body, good.replace(/v1=/, "v0="), SECRET, now)).toBe(false);
});

describeEachDatabase("Stripe webhook", (target) => {
  let db: Database;
  let stripe: FakeStripe;

  beforeAll(async () => {
    db = await target.open();
    stripe = await startFakeStripe();
  });

  afterEach(() => {
    vi.unstubAllEnvs();
  });

  afterAll(async () => {
    await stripe.close();
    await db.close();
  });

  function configure(env: Record<string, string> = {}) {
    vi.stubEnv("STRIPE_SECRET_KEY", FAKE_STRIPE_KEY);
    vi.stubEnv("STRIPE_WEBHOOK_SECRET", SECRET);
    vi.stubEnv("STRIPE_API_BASE", stripe.apiBase);
    vi.stubEnv("STRIPE_PRICE_SOLO", "price_solo");
    vi.stubEnv("STRIPE_PRICE_PRACTICE", "price_practice");
    for (const [key, value] of Object.entries(env)) vi.stubEnv(key, value);
  }

  /** POSTs `body` (raw) to the route module with a Stripe-Signature header. */
  async function deliver(body: string, signature: string | null, method = "POST"): Promise<{ status: number; json: unknown }> {
    const headers = new Headers({ "content-type": "application/json" });
    if (signature !== null) headers.set("stripe-signature", signature);
    const request = new Request(`${TEST_SITE_URL}/api/billing/stripe/webhook`, { method, headers, body });
    const response = await responseOf(() =>
      webhookRoute.action({ request, context: createTestContext({ db }), params: {} } as never),
    );
    return { status: response.status, json: await response.json() };
  }

  /** A paid checkout of `plan` started by the organisation's owner through the provider. */
  async function paidCheckout(plan: "solo" | "practice" = "practice") {
    const world = await createOrgWithEveryRole(db);
    const provider = createStripeProvider({
      secretKey: FAKE_STRIPE_KEY,
      webhookSecret: SECRET,
      apiBase: stripe.apiBase,
      prices: { solo: "price_solo", practice: "price_practice" },
    });
    const started = await provider.startChange({
      db,
      actor: { userId: world.users.owner },
      orgId: world.orgId,
      plan,
      returnUrl: `${TEST_SITE_URL}/settings/billing`,
    });
    const id = started.kind === "redirect" ? (started.url.split("/").pop() ?? "") : "";
    return { ...world, session: stripe.pay(id) };
  }

  const planOf = async (orgId: string) =>
    (await db.kysely.selectFrom("organizations").select("plan").where("id", "=", orgId).executeTakeFirstOrThrow()).plan;
  const planChanges = (orgId: string) =>
    db.kysely
      .selectFrom("audit_log")
      .select(["actor_id", "details"])
      .where("org_id", "=", orgId)
      .where("action", "=", "org.plan_changed")
      .execute();

  it("a signed checkout.session.completed applies the plan, audited as the owner who paid", async () => {
    configure();
    const w = await paidCheckout("practice");
    const body = JSON.stringify(checkoutEvent(w.session));
    const res = await deliver(body, stripeSignature(body, SECRET));
    expect(res).toEqual({ status: 200, json: { received: true, duplicate: false, applied: true } });
    expect(await planOf(w.orgId)).toBe("practice");
    expect(await planChanges(w.orgId)).toEqual([
      { actor_id: w.users.owner, details: { from: "trial", to: "practice", provider: "stripe", checkout_session: w.session.id } },
    ]);
  });

  it("a replayed event (same id, freshly signed) is acknowledged as a duplicate and changes nothing", async () => {
    configure();
    const w = await paidCheckout("solo");
    const event = checkoutEvent(w.session);
    const body = JSON.stringify(event);
    expect((await deliver(body, stripeSignature(body, SECRET))).json).toMatchObject({ applied: true });
    await db.kysely.updateTable("organizations").set({ plan: "Clinic" }).where("id", "=", w.orgId).execute();
    const again = await deliver(body, stripeSignature(body, SECRET));
    expect(again).toEqual({ status: 200, json: { received: true, duplicate: true, applied: false } });
    // Another event for the same, already applied session does not re-apply it either.
    const other = JSON.stringify(checkoutEvent(w.session, "checkout.session.async_payment_succeeded"));
    expect((await deliver(other, stripeSignature(other, SECRET))).json).toEqual({
      received: true,
      duplicate: false,
      applied: false,
    });
    expect(await planOf(w.orgId)).toBe("Clinic");
    expect(await planChanges(w.orgId)).toHaveLength(1);
    const stored = await db.kysely
      .selectFrom("billing_events")
      .select(["external_id", "type"])
      .where("org_id", "=", w.orgId)
      .execute();
    expect(stored.map((e) => e.external_id).sort()).toEqual([event.id, JSON.parse(other).id, w.session.id].sort());
  });

  it("a bad, missing or stale signature is 400 invalid_signature and changes nothing", async () => {
    configure();
    const w = await paidCheckout();
    const body = JSON.stringify(checkoutEvent(w.session));
    const stale = new Date(Date.now() - 10 * 60_000);
    for (const signature of [stripeSignature(body, "whsec_wrong"), null, stripeSignature(body, SECRET, stale), "t=1,v1=zz"]) {
      const res = await deliver(body, signature);
      expect(res, String(signature)).toEqual({ status: 400, json: { code: "invalid_signature", message: expect.any(String) } });
    }
    const tampered = body.replace('"practice"', '"Clinic"');
    expect((await deliver(tampered, stripeSignature(body, SECRET))).status).toBe(400);
    expect(await planOf(w.orgId)).toBe("trial");
    expect(await db.kysely.selectFrom("billing_events").select("external_id").where("org_id", "=", w.orgId).execute()).toEqual(
      [],
    );
  });

  it("events Murmur did not start or that are not paid are acknowledged and ignored", async () => {
    configure();
    const w = await paidCheckout();
    const cases = [
      checkoutEvent({ ...w.session, payment_status: "unpaid" }),
      checkoutEvent({ ...w.session, client_reference_id: "6b0e1f1c-0000-4000-8000-000000000000" }),
      checkoutEvent({ ...w.session, metadata: { ...w.session.metadata, plan: "enterprise" } }),
      { ...checkoutEvent(w.session), type: "invoice.paid" },
    ];
    for (const event of cases) {
      const body = JSON.stringify(event);
      expect(await deliver(body, stripeSignature(body, SECRET))).toEqual({
        status: 200,
        json: { received: true, duplicate: false, applied: false },
      });
    }
    expect(await planOf(w.orgId)).toBe("trial");
  });

  it("a signed body that is not an event is 400 bad_json; GET is 405", async () => {
    configure();
    for (const body of ["not json", JSON.stringify({ hello: "world" })]) {
      const res = await deliver(body, stripeSignature(body, SECRET));
      expect(res, body).toEqual({ status: 400, json: { code: "bad_json", message: expect.any(String) } });
    }
    const get = await responseOf(() => webhookRoute.loader());
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });

  it("without Stripe, or without a webhook secret, the route is 404 webhook_not_configured", async () => {
    const body = "{}";
    vi.stubEnv("STRIPE_SECRET_KEY", "");
    expect(await deliver(body, stripeSignature(body, SECRET))).toEqual({
      status: 404,
      json: { code: "webhook_not_configured", message: expect.any(String) },
    });
    configure({ STRIPE_WEBHOOK_SECRET: "" });
    expect((await deliver(body, stripeSignature(body, SECRET))).status).toBe(404);
  });
});
