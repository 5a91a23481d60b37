import { createElement } from "react";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import type { Database } from "#app/db/database.server.ts";
import type { OrgRole } from "#app/db/schema.ts";
import Billing, * as billingPage from "#app/routes/app/settings/billing.tsx";
import { orgContext } from "#app/services/org-context/current-org.ts";
import { loadMemberOrgs } from "#app/services/org-context/resolve.server.ts";
import { userContext } from "#app/services/session/user-context.ts";
import { TEST_SITE_URL } from "#tests/setup/auth.ts";
import { createTestContext } from "#tests/setup/context.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { createOrgWithEveryRole } from "#tests/setup/orgs.ts";
import { FAKE_STRIPE_KEY, type FakeStripe, startFakeStripe } from "./fake-stripe.ts";
import { renderAt, textOf } from "./render.ts";

// Settings → Billing (issue 4 "Plans and trial"): the loader and action called with the request
// context the app layout's middleware builds (user + current organisation), on both databases.

interface Outcome {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: loader and action data, checked field by field.
  data: any;
  location: string | null;
  cookies: string[];
}

/** What a loader or action produced, returned or thrown: a Response (redirect), data() with init, or plain data. */
async function settle(run: () => unknown): Promise<Outcome> {
  let value: unknown;
  try {
    value = await run();
  } catch (thrown) {
    value = thrown;
  }
  if (value instanceof Response) {
    return { status: value.status, data: null, location: value.headers.get("location"), cookies: value.headers.getSetCookie() };
  }
  if (typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit") {
    const { data, init } = value as { data: unknown; init: ResponseInit | null };
    const headers = new Headers(init?.headers);
    return { status: init?.status ?? 200, data, location: headers.get("location"), cookies: headers.getSetCookie() };
  }
  if (value instanceof Error) throw value;
  return { status: 200, data: value, location: null, cookies: [] };
}

describeEachDatabase("Settings → Billing page", (target) => {
  let db: Database;
  let stripe: FakeStripe;
  let world: Awaited<ReturnType<typeof createOrgWithEveryRole>>;

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

  /** The context the app layout's middleware would build for `role` in the test organisation. */
  async function contextFor(role: OrgRole, w = world) {
    const userId = w.users[role];
    const orgs = await loadMemberOrgs(db, userId);
    const org = orgs.find((o) => o.id === w.orgId);
    if (!org) throw new Error("not a member");
    const user = { id: userId, email: `${role}@example.test` };
    const context = createTestContext({ db });
    context.set(userContext, user);
    context.set(orgContext, { user, org, role: org.role, orgs, switchedFrom: null });
    return context;
  }

  async function get(role: OrgRole, path: string, cookie?: string, w = world) {
    const request = new Request(`${TEST_SITE_URL}${path}`, { headers: cookie ? { cookie } : {} });
    const context = await contextFor(role, w);
    return settle(() => billingPage.loader({ request, context, params: {} } as never));
  }

  async function post(role: OrgRole, form: Record<string, string>, path = "/settings/billing", w = world) {
    const request = new Request(`${TEST_SITE_URL}${path}`, {
      method: "POST",
      headers: { "user-agent": "vitest" },
      body: new URLSearchParams(form),
    });
    const context = await contextFor(role, w);
    return settle(() => billingPage.action({ request, context, params: {} } as never));
  }

  const planOf = async (orgId = world.orgId) =>
    (await db.kysely.selectFrom("organizations").select("plan").where("id", "=", orgId).executeTakeFirstOrThrow()).plan;
  const cookieValue = (cookies: string[]) => cookies.find((c) => c.startsWith("murmur-billing-notice="))?.split(";")[0];

  function useStripe() {
    vi.stubEnv("STRIPE_SECRET_KEY", FAKE_STRIPE_KEY);
    vi.stubEnv("STRIPE_API_BASE", stripe.apiBase);
    vi.stubEnv("STRIPE_PRICE_SOLO", "price_solo");
    vi.stubEnv("STRIPE_PRICE_PRACTICE", "price_practice");
  }

  beforeAll(async () => {
    world = await createOrgWithEveryRole(db);
  });

  it("every role reads the plan and the trial; only an owner may choose; the manual provider offers every paid plan", async () => {
    for (const role of ["owner", "admin", "clinician", "staff"] as const) {
      const page = await get(role, "/settings/billing");
      expect(page.status, role).toBe(200);
      expect(page.data, role).toMatchObject({
        plan: "trial",
        trial: { state: "active", daysLeft: 14 },
        isOwner: role === "owner",
        provider: "manual",
        choosable: ["solo", "practice", "Clinic"],
        notice: null,
      });
    }
  });

  it("an owner chooses a plan: redirect-after-post with a notice the next render shows once; audited", async () => {
    const w = await createOrgWithEveryRole(db);
    const res = await post("owner", { intent: "choose-plan", plan: "practice" }, "/fr/settings/billing", w);
    expect(res.status).toBe(303);
    expect(res.location).toBe("/fr/settings/billing");
    expect(cookieValue(res.cookies)).toBe("murmur-billing-notice=changed.practice");
    expect(await planOf(w.orgId)).toBe("practice");
    const audit = await db.kysely
      .selectFrom("audit_log")
      .select(["action", "actor_id", "user_agent"])
      .where("org_id", "=", w.orgId)
      .execute();
    expect(audit).toEqual([{ action: "org.plan_changed", actor_id: w.users.owner, user_agent: "vitest" }]);
    const next = await get("owner", "/fr/settings/billing", "murmur-billing-notice=changed.practice", w);
    expect(next.data).toMatchObject({
      plan: "practice",
      trial: { state: "not-on-trial" },
      notice: { kind: "changed", plan: "practice" },
    });
    expect(next.cookies).toEqual([expect.stringMatching(/^murmur-billing-notice=; .*Max-Age=0/)]);
  });

  it("admins, clinicians and staff are refused (403 forbidden_role); bad input is 400 invalid_input; nothing changes", async () => {
    for (const role of ["admin", "clinician", "staff"] as const) {
      const res = await post(role, { intent: "choose-plan", plan: "Clinic" });
      expect(res, role).toMatchObject({ status: 403, data: { error: "forbidden_role" } });
    }
    const bad: Record<string, string>[] = [
      { intent: "choose-plan", plan: "trial" },
      { intent: "choose-plan", plan: "clinic" },
      { plan: "solo" },
      {},
    ];
    for (const form of bad) {
      const res = await post("owner", form);
      expect(res, JSON.stringify(form)).toMatchObject({ status: 400, data: { error: "invalid_input" } });
    }
    expect(await planOf()).toBe("trial");
  });

  it("the stripe and session_id parameters are removed by a redirect that keeps the rest of the query (SPEC §2)", async () => {
    // Without Stripe configured a return means nothing: stripped, no notice, no change.
    const stray = await get("staff", "/settings/billing?stripe=success&session_id=cs_test_x");
    expect(stray).toMatchObject({ status: 302, location: "/settings/billing", cookies: [] });
    expect(await planOf()).toBe("trial");
    useStripe();
    const cancelled = await get("owner", "/fr/settings/billing?stripe=cancelled&tab=plans");
    expect(cancelled).toMatchObject({ status: 302, location: "/fr/settings/billing?tab=plans" });
    expect(cookieValue(cancelled.cookies)).toBe("murmur-billing-notice=cancelled");
    const bare = await get("owner", "/settings/billing?stripe=");
    expect(bare).toMatchObject({ status: 302, location: "/settings/billing", cookies: [] });
  });

  it("with Stripe: choosing redirects to Checkout; the paid return applies the plan, strips the query and leaves a notice", async () => {
    useStripe();
    const w = await createOrgWithEveryRole(db);
    const page = await get("owner", "/es/settings/billing", undefined, w);
    expect(page.data).toMatchObject({ provider: "stripe", choosable: ["solo", "practice"] });
    const res = await post("owner", { intent: "choose-plan", plan: "solo" }, "/es/settings/billing", w);
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    const id = res.location?.split("/").pop() ?? "";
    expect(stripe.sessions.get(id)?.success_url).toBe(
      `${TEST_SITE_URL}/es/settings/billing?stripe=success&session_id={CHECKOUT_SESSION_ID}`,
    );
    const unpaid = await get("owner", `/es/settings/billing?stripe=success&session_id=${id}`, undefined, w);
    expect(unpaid).toMatchObject({ status: 302, location: "/es/settings/billing" });
    expect(cookieValue(unpaid.cookies)).toBe("murmur-billing-notice=error.checkout_incomplete");
    expect(await planOf(w.orgId)).toBe("trial");
    stripe.pay(id);
    const paid = await get("owner", `/es/settings/billing?session_id=${id}&stripe=success`, undefined, w);
    expect(paid).toMatchObject({ status: 302, location: "/es/settings/billing" });
    expect(cookieValue(paid.cookies)).toBe("murmur-billing-notice=changed.solo");
    expect(await planOf(w.orgId)).toBe("solo");
  });

  it("with Stripe: a non-owner's return or a Stripe outage becomes an error notice, never a 500", async () => {
    useStripe();
    const w = await createOrgWithEveryRole(db);
    const admin = await get("admin", "/settings/billing?stripe=success&session_id=cs_test_abc", undefined, w);
    expect(cookieValue(admin.cookies)).toBe("murmur-billing-notice=error.forbidden_role");
    stripe.failNextWith = 503;
    const outage = await get("owner", "/settings/billing?stripe=success&session_id=cs_test_abc", undefined, w);
    expect(outage).toMatchObject({ status: 302, location: "/settings/billing" });
    expect(cookieValue(outage.cookies)).toBe("murmur-billing-notice=error.billing_provider_error");
    stripe.failNextWith = 503;
    const failed = await post("owner", { intent: "choose-plan", plan: "practice" }, "/settings/billing", w);
    expect(failed).toMatchObject({ status: 502, data: { error: "billing_provider_error" } });
    const clinic = await post("owner", { intent: "choose-plan", plan: "Clinic" }, "/settings/billing", w);
    expect(clinic).toMatchObject({ status: 400, data: { error: "plan_not_available" } });
  });

  it("a forged notice cookie is ignored", async () => {
    for (const cookie of [
      "murmur-billing-notice=changed.enterprise",
      "murmur-billing-notice=error.<script>",
      "murmur-billing-notice=x",
    ]) {
      expect((await get("owner", "/settings/billing", cookie)).data.notice, cookie).toBeNull();
    }
  });

  it("renders: owners get a form per other plan; others are told to ask an owner (fr)", async () => {
    const base = {
      orgName: "Cabinet Soleil",
      plan: "solo",
      timezone: "Europe/Paris",
      trial: { state: "not-on-trial" },
      provider: "manual",
      choosable: ["solo", "practice", "Clinic"],
      notice: { kind: "changed", plan: "solo" },
    } as const;
    const render = (isOwner: boolean) =>
      renderAt(
        "/fr/settings/billing",
        createElement(Billing, { loaderData: { ...base, isOwner }, params: {}, matches: [] } as never),
      );
    const owner = await render(true);
    expect(owner.match(/name="intent" value="choose-plan"/g)).toHaveLength(2);
    expect(textOf(owner)).toContain("Votre formule est désormais Solo.");
    expect(textOf(owner)).toContain("Choisir Cabinet");
    const staff = await render(false);
    expect(staff).not.toContain('value="choose-plan"');
    expect(textOf(staff)).toContain("Demandez à un propriétaire de Cabinet Soleil d’en choisir une.");
  });

  it("renders the trial's end in the organisation's time zone", async () => {
    const html = await renderAt(
      "/settings/billing",
      createElement(Billing, {
        loaderData: {
          orgName: "A",
          plan: "trial",
          timezone: "Pacific/Auckland",
          trial: { state: "ended", endsAt: "2026-03-01T20:00:00.000Z" },
          isOwner: true,
          provider: "manual",
          choosable: ["solo", "practice", "Clinic"],
          notice: null,
        },
        params: {},
        matches: [],
      } as never),
    );
    expect(textOf(html)).toContain("Your trial ended on March 2, 2026.");
    expect(textOf(html)).toContain("Choose a plan to record new visits");
  });
});
