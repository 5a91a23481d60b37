import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { orgMiddleware } from "#app/middleware/org.server.ts";
import * as currentRoute from "#app/routes/resources/api-orgs-current.ts";
import * as switchRoute from "#app/routes/resources/switch-org.ts";
import { type OrgState, orgContext } from "#app/services/org-context/current-org.ts";
import { userContext } from "#app/services/session/user-context.ts";
import { type ApiHarness, type ApiUser, callRoute } from "#tests/setup/api.ts";
import { TEST_SITE_URL } from "#tests/setup/auth.ts";
import { responseOf } from "#tests/setup/context.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { createOrg } from "#tests/setup/orgs.ts";

// Issue 4 "Bootstrap and current organisation": the server decides the organisation of every
// signed-in page from the cookie and the user's memberships, never from what the client claims.
function isDataWithStatus(value: unknown): value is { init: { status: number } } {
  return (
    typeof value === "object" &&
    value !== null &&
    "init" in value &&
    typeof (value as { init?: { status?: unknown } }).init?.status === "number"
  );
}

describeEachDatabase("current organisation", (target) => {
  let h: ApiHarness;
  let ana: ApiUser;
  let bob: ApiUser;
  let anaPractice: string;
  let bobPractice: string;

  beforeAll(async () => {
    const { openApiHarness } = await import("#tests/setup/api.ts");
    h = await openApiHarness(target);
    ana = await h.user({ fullName: "Ana Ruiz" });
    bob = await h.user();
    anaPractice = await createOrg(h.db, [{ userId: ana.id, role: "clinician" }], { name: "Clinique Ana" });
    bobPractice = await createOrg(h.db, [{ userId: bob.id, role: "owner" }]);
  });

  afterAll(async () => {
    await h.close();
  });

  /** Runs the app layout's middleware for `path` as `user` with an optional cookie. */
  async function page(user: ApiUser, path: string, cookie?: string) {
    const context = h.context();
    context.set(userContext, { id: user.id, email: user.email });
    const headers = new Headers(cookie ? { cookie: `murmur-org=${cookie}` } : {});
    const request = new Request(`${TEST_SITE_URL}${path}`, { headers });
    let state: OrgState | null = null;
    const response = await responseOf(async () => {
      try {
        return await orgMiddleware({ request, context, params: {} } as never, async () => {
          state = context.get(orgContext);
          return new Response("page");
        });
      } catch (thrown) {
        // data() errors (the page validity 404) become responses the way React Router renders them.
        if (isDataWithStatus(thrown)) return new Response(null, { status: thrown.init.status });
        throw thrown;
      }
    });
    return { response, state: state as OrgState | null, setCookie: response.headers.getSetCookie().join("\n") };
  }

  it("a first visit creates the personal organisation in the page's language and remembers it", async () => {
    const carla = await h.user({ fullName: "Carla Gómez" });
    const { response, state, setCookie } = await page(carla, "/es/dashboard");
    expect(response.status).toBe(200);
    expect(state?.org).toMatchObject({ kind: "personal", role: "owner" });
    expect(state?.org.name).toContain("Carla Gómez");
    expect(state?.org.name).not.toContain("practice");
    expect(state?.orgs).toHaveLength(1);
    expect(setCookie).toContain(`murmur-org=${state?.org.id}`);
    const again = await page(carla, "/es/dashboard", state?.org.id);
    expect(again.state?.org.id).toBe(state?.org.id);
    expect(again.setCookie).toBe("");
  });

  it("keeps the cookie's organisation when the user is a member, with their role there", async () => {
    const { state, setCookie } = await page(ana, "/dashboard", anaPractice);
    expect(state).toMatchObject({ org: { id: anaPractice, name: "Clinique Ana" }, role: "clinician", switchedFrom: null });
    expect(setCookie).toBe("");
  });

  it("ignores a cookie naming another tenant's organisation and falls back to the personal one", async () => {
    const { state, setCookie } = await page(ana, "/dashboard", bobPractice);
    expect(state?.org.kind).toBe("personal");
    expect(state?.orgs.map((o) => o.id)).not.toContain(bobPractice);
    expect(setCookie).toContain(`murmur-org=${state?.org.id}`);
  });

  it("a deep link with ?org= switches to another of the user's organisations, with the notice", async () => {
    const personal = (await page(ana, "/dashboard")).state?.org.id;
    const { state, setCookie } = await page(ana, `/settings?org=${anaPractice}`, personal);
    expect(state).toMatchObject({ org: { id: anaPractice }, switchedFrom: personal });
    expect(setCookie).toContain(`murmur-org=${anaPractice}`);
  });

  it("a deep link to another tenant's organisation, or a malformed one, is a 404 page", async () => {
    for (const org of [bobPractice, "not-a-uuid", "00000000-0000-4000-8000-000000000000"]) {
      const { response } = await page(ana, `/dashboard?org=${org}`, anaPractice);
      expect(response.status).toBe(404);
    }
  });

  it("after leaving an organisation its cookie no longer works", async () => {
    const dan = await h.user();
    const left = await createOrg(h.db, [{ userId: dan.id, role: "staff" }]);
    expect((await page(dan, "/dashboard", left)).state?.org.id).toBe(left);
    await sql`delete from public.org_members where org_id = ${left} and user_id = ${dan.id}`.execute(h.db.kysely);
    const { state } = await page(dan, "/dashboard", left);
    expect(state?.org.id).not.toBe(left);
    expect(state?.org.kind).toBe("personal");
  });

  it("an anonymous visitor is sent to the sign-in page", async () => {
    const context = h.context();
    const response = await responseOf(() =>
      orgMiddleware(
        { request: new Request(`${TEST_SITE_URL}/fr/dashboard`), context, params: {} } as never,
        async () => new Response(),
      ),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toMatch(/^\/fr\/login\?redirectTo=/);
  });

  // ---- the switcher's form post ----

  async function switchTo(user: ApiUser | null, form: Record<string, string>) {
    const context = h.context();
    if (user) context.set(userContext, { id: user.id, email: user.email });
    const request = new Request(`${TEST_SITE_URL}/_org`, { method: "POST", body: new URLSearchParams(form) });
    return responseOf(() => switchRoute.action({ request, context, params: {} } as never));
  }

  it("switches to an organisation of the user: 303 back to the section, cookie set, resource ids dropped", async () => {
    const response = await switchTo(ana, {
      intent: "switch",
      org_id: anaPractice,
      redirectTo: `/fr/transcribing?org=${bobPractice}`,
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/fr/transcribing");
    expect(response.headers.get("set-cookie")).toMatch(
      new RegExp(`^murmur-org=${anaPractice}; Path=/; Max-Age=\\d+; SameSite=Lax`),
    );
  });

  it("refuses another tenant's, a malformed or an empty id with 404 org_not_found, and an off-site target falls back", async () => {
    for (const org_id of [bobPractice, "x", ""]) {
      const response = await switchTo(ana, { intent: "switch", org_id });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ code: "org_not_found" });
    }
    const offsite = await switchTo(ana, { intent: "switch", org_id: anaPractice, redirectTo: "//evil.test/x" });
    expect(offsite.headers.get("location")).toBe("/dashboard");
  });

  it("retry forgets the organisation; bad intents are 400 and anonymous callers 401", async () => {
    const retry = await switchTo(ana, { intent: "retry", redirectTo: "/settings" });
    expect(retry.status).toBe(303);
    expect(retry.headers.get("set-cookie")).toMatch(/^murmur-org=; Path=\/; Max-Age=0/);
    expect((await switchTo(ana, { intent: "become-owner" })).status).toBe(400);
    expect((await switchTo(null, { intent: "retry" })).status).toBe(401);
  });

  // ---- x-org-id on the API ----

  it("GET /api/orgs/current answers for x-org-id members only", async () => {
    const ok = await callRoute(h, currentRoute, {
      method: "GET",
      path: "/api/orgs/current",
      token: ana.token,
      headers: { "x-org-id": anaPractice },
    });
    expect(ok).toMatchObject({ status: 200, body: { id: anaPractice, role: "clinician", plan: "trial" } });
    const foreign = await callRoute(h, currentRoute, {
      method: "GET",
      path: "/api/orgs/current",
      token: ana.token,
      headers: { "x-org-id": bobPractice },
    });
    expect(foreign).toMatchObject({ status: 404, body: { code: "org_not_found" } });
    const malformed = await callRoute(h, currentRoute, {
      method: "GET",
      path: "/api/orgs/current",
      token: ana.token,
      headers: { "x-org-id": "1 or 1=1" },
    });
    expect(malformed).toMatchObject({ status: 404, body: { code: "org_not_found" } });
    const missing = await callRoute(h, currentRoute, { method: "GET", path: "/api/orgs/current", token: ana.token });
    expect(missing).toMatchObject({ status: 400, body: { code: "org_required" } });
    const anonymous = await callRoute(h, currentRoute, {
      method: "GET",
      path: "/api/orgs/current",
      token: null,
      headers: { "x-org-id": anaPractice },
    });
    expect(anonymous).toMatchObject({ status: 401, body: { code: "not_authenticated" } });
  });
});
