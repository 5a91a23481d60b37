import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { withActor } from "#app/db/actor.server.ts";
import type { Database } from "#app/db/database.server.ts";
import type { StripeConfig } from "#app/services/billing/config.server.ts";
import type { BillingProvider } from "#app/services/billing/provider.server.ts";
import { createStripeProvider } from "#app/services/billing/stripe-provider.server.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { createAuthUser, createOrg, createOrgWithEveryRole } from "#tests/setup/orgs.ts";
import { FAKE_STRIPE_KEY, type FakeStripe, startFakeStripe } from "./fake-stripe.ts";

// Issue 4 "Plans and trial": the Stripe provider against a loopback fake of Stripe's REST API —
// checkout creation (owners only), then the return: verified with Stripe, for this organisation,
// paid, applied once.

const RETURN_URL = "http://murmur.test/fr/settings/billing";

describeEachDatabase("Stripe billing provider", (target) => {
  let db: Database;
  let stripe: FakeStripe;
  let config: StripeConfig;
  let provider: BillingProvider;

  beforeAll(async () => {
    db = await target.open();
    stripe = await startFakeStripe();
    config = {
      secretKey: FAKE_STRIPE_KEY,
      webhookSecret: "whsec_test",
      apiBase: stripe.apiBase,
      prices: { solo: "price_solo", practice: "price_practice" },
    };
    provider = createStripeProvider(config);
  });

  afterAll(async () => {
    await stripe.close();
    await db.close();
  });

  const planOf = async (orgId: string) =>
    (await db.kysely.selectFrom("organizations").select("plan").where("id", "=", orgId).executeTakeFirstOrThrow()).plan;
  const auditOf = (orgId: string) =>
    db.kysely
      .selectFrom("audit_log")
      .select(["action", "actor_id", "details"])
      .where("org_id", "=", orgId)
      .orderBy("id")
      .execute();
  const start = (orgId: string, userId: string, plan: "solo" | "practice" | "Clinic" = "practice") =>
    provider.startChange({ db, actor: { userId }, meta: { ip: "127.0.0.1" }, orgId, plan, returnUrl: `${RETURN_URL}?x=1` });
  const back = (orgId: string, userId: string, query: string) =>
    provider.completeReturn({ db, actor: { userId }, orgId, params: new URLSearchParams(query) });
  const sessionIdOf = (url: string) => url.split("/").pop() ?? "";

  it("an owner starts a subscription checkout that names the organisation, plan and owner, and comes back to the billing page", async () => {
    const { orgId, users } = await createOrgWithEveryRole(db);
    const before = stripe.requests.length;
    const started = await start(orgId, users.owner);
    expect(started).toEqual({
      kind: "redirect",
      url: expect.stringMatching(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/),
    });
    const request = stripe.requests[before];
    expect(request).toMatchObject({ method: "POST", path: "/v1/checkout/sessions", authorization: `Bearer ${FAKE_STRIPE_KEY}` });
    const session = stripe.sessions.get(sessionIdOf(started.kind === "redirect" ? started.url : ""));
    expect(session).toMatchObject({
      mode: "subscription",
      line_items_price: "price_practice",
      client_reference_id: orgId,
      metadata: { org_id: orgId, plan: "practice", user_id: users.owner },
      success_url: `${RETURN_URL}?stripe=success&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${RETURN_URL}?stripe=cancelled`,
    });
    expect(await planOf(orgId)).toBe("trial");
    expect(await auditOf(orgId)).toEqual([
      {
        action: "billing.checkout_started",
        actor_id: users.owner,
        details: { plan: "practice", provider: "stripe", checkout_session: session?.id },
      },
    ]);
  });

  it("admins, clinicians and staff get 403 and another tenant's owner 404, before Stripe is called", async () => {
    const { orgId, users } = await createOrgWithEveryRole(db);
    const stranger = await createAuthUser(db);
    await createOrg(db, [{ userId: stranger.id, role: "owner" }]);
    const before = stripe.requests.length;
    for (const role of ["admin", "clinician", "staff"] as const) {
      await expect(start(orgId, users[role]), role).rejects.toMatchObject({ status: 403, code: "forbidden_role" });
    }
    await expect(start(orgId, stranger.id)).rejects.toMatchObject({ status: 404, code: "org_not_found" });
    expect(stripe.requests.length).toBe(before);
    expect(await auditOf(orgId)).toEqual([]);
  });

  it("a plan without a configured Stripe price cannot be bought (400 plan_not_available)", async () => {
    const { orgId, users } = await createOrgWithEveryRole(db);
    expect(provider.canChoose("Clinic")).toBe(false);
    expect(provider.canChoose("solo")).toBe(true);
    await expect(start(orgId, users.owner, "Clinic")).rejects.toMatchObject({ status: 400, code: "plan_not_available" });
  });

  it("a Stripe outage is 502 billing_provider_error, with nothing logged", async () => {
    const { orgId, users } = await createOrgWithEveryRole(db);
    stripe.failNextWith = 500;
    await expect(start(orgId, users.owner)).rejects.toMatchObject({ status: 502, code: "billing_provider_error" });
    const unreachable = createStripeProvider({ ...config, apiBase: "http://127.0.0.1:9" });
    await expect(
      unreachable.startChange({ db, actor: { userId: users.owner }, orgId, plan: "solo", returnUrl: RETURN_URL }),
    ).rejects.toMatchObject({ status: 502, code: "billing_provider_error" });
    expect(await auditOf(orgId)).toEqual([]);
  });

  it("return: an unpaid session changes nothing (409); once paid the plan applies once, audited as Stripe", async () => {
    const { orgId, users } = await createOrgWithEveryRole(db);
    const started = await start(orgId, users.owner, "solo");
    const id = sessionIdOf(started.kind === "redirect" ? started.url : "");
    const query = `stripe=success&session_id=${id}`;
    await expect(back(orgId, users.owner, query)).rejects.toMatchObject({ status: 409, code: "checkout_incomplete" });
    expect(await planOf(orgId)).toBe("trial");
    stripe.pay(id);
    expect(await back(orgId, users.owner, query)).toEqual({ kind: "changed", plan: "solo" });
    expect(await planOf(orgId)).toBe("solo");
    expect(await back(orgId, users.owner, query)).toEqual({ kind: "changed", plan: "solo" });
    const audit = await auditOf(orgId);
    expect(audit.map((a) => a.action)).toEqual(["billing.checkout_started", "org.plan_changed"]);
    expect(audit[1]).toEqual({
      action: "org.plan_changed",
      actor_id: users.owner,
      details: { from: "trial", to: "solo", provider: "stripe", checkout_session: id },
    });
    const events = await db.kysely.selectFrom("billing_events").selectAll().where("org_id", "=", orgId).execute();
    expect(events).toEqual([
      expect.objectContaining({
        provider: "stripe",
        external_id: id,
        type: "checkout.session.applied",
        details: { plan: "solo", customer: `cus_${id.slice(-8)}`, subscription: `sub_${id.slice(-8)}` },
      }),
    ]);
  });

  it("return: an old session cannot undo a later plan change", async () => {
    const { orgId, users } = await createOrgWithEveryRole(db);
    const started = await start(orgId, users.owner, "solo");
    const id = sessionIdOf(started.kind === "redirect" ? started.url : "");
    stripe.pay(id);
    await back(orgId, users.owner, `stripe=success&session_id=${id}`);
    await sql`update public.organizations set plan = 'practice' where id = ${orgId}`.execute(db.kysely);
    expect(await back(orgId, users.owner, `stripe=success&session_id=${id}`)).toEqual({ kind: "changed", plan: "practice" });
    expect(await planOf(orgId)).toBe("practice");
  });

  it("return: another organisation's paid session, an unknown or a malformed id is 404 checkout_not_found", async () => {
    const a = await createOrgWithEveryRole(db);
    const b = await createOrgWithEveryRole(db);
    const started = await start(a.orgId, a.users.owner, "practice");
    const id = sessionIdOf(started.kind === "redirect" ? started.url : "");
    stripe.pay(id);
    await expect(back(b.orgId, b.users.owner, `stripe=success&session_id=${id}`)).rejects.toMatchObject({
      status: 404,
      code: "checkout_not_found",
    });
    for (const bad of ["cs_test_unknown", "../v1/customers", ""]) {
      await expect(
        back(a.orgId, a.users.owner, `stripe=success&session_id=${encodeURIComponent(bad)}`),
        bad,
      ).rejects.toMatchObject({
        status: 404,
        code: "checkout_not_found",
      });
    }
    expect(await planOf(b.orgId)).toBe("trial");
    expect(await planOf(a.orgId)).toBe("trial");
  });

  it("return: only an owner applies it (403); cancelled and unrelated queries change nothing", async () => {
    const { orgId, users } = await createOrgWithEveryRole(db);
    const started = await start(orgId, users.owner, "solo");
    const id = sessionIdOf(started.kind === "redirect" ? started.url : "");
    stripe.pay(id);
    await expect(back(orgId, users.admin, `stripe=success&session_id=${id}`)).rejects.toMatchObject({ status: 403 });
    expect(await back(orgId, users.owner, "stripe=cancelled")).toEqual({ kind: "cancelled" });
    expect(await back(orgId, users.owner, "stripe=whatever")).toEqual({ kind: "none" });
    expect(await planOf(orgId)).toBe("trial");
  });

  it("billing_events: owners and admins read their organisation's rows, others none; members cannot insert for others", async () => {
    const { orgId, users } = await createOrgWithEveryRole(db);
    const started = await start(orgId, users.owner, "solo");
    stripe.pay(sessionIdOf(started.kind === "redirect" ? started.url : ""));
    await back(orgId, users.owner, `stripe=success&session_id=${sessionIdOf(started.kind === "redirect" ? started.url : "")}`);
    const visible = async (userId: string) =>
      (await withActor(db, { userId, orgId }, (trx) => trx.selectFrom("billing_events").select("org_id").execute())).length;
    expect(await visible(users.owner)).toBe(1);
    expect(await visible(users.admin)).toBe(1);
    expect(await visible(users.clinician)).toBe(0);
    expect(await visible(users.staff)).toBe(0);
    for (const role of ["admin", "clinician"] as const) {
      await expect(
        withActor(db, { userId: users[role], orgId }, (trx) =>
          trx
            .insertInto("billing_events")
            .values({ provider: "stripe", external_id: `cs_forged_${role}`, org_id: orgId, type: "x" })
            .execute(),
        ),
        role,
      ).rejects.toThrow();
    }
    await expect(
      withActor(db, { userId: users.owner, orgId }, (trx) =>
        trx.deleteFrom("billing_events").where("org_id", "=", orgId).execute(),
      ),
    ).rejects.toThrow();
  });
});
