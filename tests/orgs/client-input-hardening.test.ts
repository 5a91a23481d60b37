import fc from "fast-check";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { orgMiddleware } from "#app/middleware/org.server.ts";
import { sessionMiddleware } from "#app/middleware/session.server.ts";
import * as orgNewPage from "#app/routes/app/org-new.tsx";
import * as organizationPage from "#app/routes/app/settings/organization.tsx";
import * as orgRoute from "#app/routes/resources/api-org.ts";
import * as orgsRoute from "#app/routes/resources/api-orgs.ts";
import * as patientsRoute from "#app/routes/resources/api-patients.ts";
import * as switchRoute from "#app/routes/resources/switch-org.ts";
import { readOrgCookie } from "#app/services/org-context/cookie.ts";
import { userContext } from "#app/services/session/user-context.ts";
import { type ApiHarness, type ApiUser, callRoute } from "#tests/setup/api.ts";
import { TEST_SITE_URL } from "#tests/setup/auth.ts";
import { responseOf } from "#tests/setup/context.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { hostileCookieHeader, hostileString, invalidUtf8Body, poisonString } from "#tests/setup/fuzz.ts";
import { createOrg } from "#tests/setup/orgs.ts";

// Outside probe, low: input a client controls must be a 4xx with a stable code (or an ignored
// cookie), never a 500. Each case here failed before: a 500 (URIError, database or TypeError) or
// silently stored U+FFFD.

const SEED = 20_260_101;
const RUNS = Number(process.env.INPUT_FUZZ_RUNS ?? 60);

/** What a page's loader or action produced, thrown or returned: data() with a status, a Response, or data. */
async function settle(run: () => unknown): Promise<{ status: number; data: unknown; headers: Headers }> {
  let value: unknown;
  try {
    value = await run();
  } catch (thrown) {
    value = thrown;
  }
  if (value instanceof Response) return { status: value.status, data: null, headers: value.headers };
  if (typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit") {
    const { data, init } = value as { data: unknown; init: ResponseInit | null };
    return { status: init?.status ?? 200, data, headers: new Headers(init?.headers) };
  }
  if (value instanceof Error) throw value;
  return { status: 200, data: value, headers: new Headers() };
}

describeEachDatabase("input a client controls", (target) => {
  let h: ApiHarness;
  let ana: ApiUser;
  let practice: string;

  beforeAll(async () => {
    const { openApiHarness } = await import("#tests/setup/api.ts");
    h = await openApiHarness(target);
    ana = await h.user({ fullName: "Ana Ruiz" });
    practice = await createOrg(h.db, [{ userId: ana.id, role: "owner" }], { name: "Clinique Ana" });
  });

  afterAll(async () => {
    await h.close();
  });

  /** A page (its loader, or its action when `form` is given) behind the app layout's middleware, as `ana`. */
  async function page(path: string, options: { cookie?: string; form?: Record<string, string>; mod?: typeof organizationPage }) {
    const context = h.context();
    context.set(userContext, { id: ana.id, email: ana.email });
    const headers = new Headers({ "user-agent": "vitest", ...(options.cookie !== undefined ? { cookie: options.cookie } : {}) });
    const request = options.form
      ? new Request(`${TEST_SITE_URL}${path}`, { method: "POST", headers, body: new URLSearchParams(options.form) })
      : new Request(`${TEST_SITE_URL}${path}`, { headers });
    let inner: Awaited<ReturnType<typeof settle>> | undefined;
    const outer = await settle(() =>
      orgMiddleware({ request, context, params: {} } as never, async () => {
        const handler = options.form ? options.mod?.action : options.mod?.loader;
        inner = handler ? await settle(() => handler({ request, context, params: {} } as never)) : undefined;
        return new Response(null, { status: inner?.status ?? 200 });
      }),
    );
    return { status: inner?.status ?? outer.status, data: inner?.data };
  }

  const orgName = async () =>
    (await sql<{ name: string }>`select name from public.organizations where id = ${practice}`.execute(h.db.kysely)).rows[0]
      ?.name;

  // ---- B1: the murmur-org cookie ----

  it("a murmur-org cookie with bad percent-encoding is ignored, on pages and on the API", async () => {
    expect(readOrgCookie("murmur-org=%E0%A4%A")).toBeNull();
    expect(readOrgCookie("a=1; murmur-org=%; b=2")).toBeNull();
    expect(readOrgCookie(`murmur-org=${encodeURIComponent(practice.toUpperCase())}`)).toBe(practice);
    const shown = await page("/dashboard", { cookie: "murmur-org=%E0%A4%A" });
    expect(shown.status).toBe(200);
    const api = await callRoute(h, patientsRoute, {
      method: "GET",
      path: "/api/patients",
      token: ana.token,
      headers: { cookie: "murmur-org=%E0%A4%A" },
    });
    expect(api).toMatchObject({ status: 400, body: { code: "org_required" } });
  });

  it("a session cookie of the wrong shape reads as signed out instead of a 500 on every page", async () => {
    const session = { access_token: "x", refresh_token: "r", expires_at: 9_999_999_999, user: "\ud800" };
    for (const value of [
      `base64-${Buffer.from(JSON.stringify(session)).toString("base64url")}`,
      encodeURIComponent(JSON.stringify({ ...session, user: 1 })),
      `base64-${Buffer.from(JSON.stringify([1])).toString("base64url")}`,
    ]) {
      const context = h.context();
      const request = new Request(`${TEST_SITE_URL}/dashboard`, { headers: { cookie: `sb-murmur-auth-token=${value}` } });
      const res = await sessionMiddleware({ request, context, params: {} } as never, async () => new Response("page"));
      expect((res as Response).status).toBe(200);
      expect(context.get(userContext)).toBeNull();
    }
  });

  // ---- B2: NUL, unpaired surrogates and control characters in free text ----

  it.each(["Nul\u0000Clinic", "Lone \ud800", "Lone \udfff end", "Bell\u0007", "Line\r\nBreak", "C1 \u0085", "Esc\u001b[31m"])(
    "POST /api/orgs and PATCH /api/orgs/:id refuse the name %j with 400 invalid_text",
    async (name) => {
      const created = await callRoute(h, orgsRoute, { method: "POST", path: "/api/orgs", token: ana.token, body: { name } });
      expect(created).toMatchObject({ status: 400, body: { code: "invalid_text" } });
      const patched = await callRoute(h, orgRoute, {
        method: "PATCH",
        path: `/api/orgs/${practice}`,
        params: { id: practice },
        token: ana.token,
        body: { name },
      });
      expect(patched).toMatchObject({ status: 400, body: { code: "invalid_text" } });
      expect(await orgName()).toBe("Clinique Ana");
    },
  );

  it("names in other scripts, with accents and emoji, are still accepted", async () => {
    for (const name of ["Clínica Dental Ñandú", "歯科 クリニック", "عيادة الأسنان", "Dental 🦷 Care"]) {
      const created = await callRoute(h, orgsRoute, { method: "POST", path: "/api/orgs", token: ana.token, body: { name } });
      expect(created.status).toBe(201);
    }
  });

  it("the patients API and the settings, new-organisation and new-patient forms answer invalid_text too", async () => {
    const patient = await callRoute(h, patientsRoute, {
      method: "POST",
      path: "/api/patients",
      token: ana.token,
      headers: { "x-org-id": practice },
      body: { display_name: "Ana \ud83d" },
    });
    expect(patient).toMatchObject({ status: 400, body: { code: "invalid_text" } });
    const settings = await page("/settings/organization", {
      cookie: `murmur-org=${practice}`,
      mod: organizationPage,
      form: { intent: "update", name: "Nul\u0000", timezone: "UTC", region: "us", pms: "none" },
    });
    expect(settings).toMatchObject({ status: 400, data: { failure: { code: "invalid_text" } } });
    const created = await page("/organizations/new", {
      cookie: `murmur-org=${practice}`,
      mod: orgNewPage as never,
      form: { name: "a\u0000" },
    });
    expect(created).toMatchObject({ status: 400, data: { error: "invalid_text" } });
    expect(await orgName()).toBe("Clinique Ana");
  });

  // ---- B4: invalid UTF-8 bodies ----

  it("PATCH and POST with a body that is not UTF-8 are 400 bad_json, like the other APIs, and store nothing", async () => {
    const bytes = new Uint8Array([...Buffer.from('{"name":"Clinique '), 0xff, 0xfe, ...Buffer.from(' Ana"}')]);
    const send = (mod: typeof orgRoute | typeof orgsRoute, method: string, path: string, params = {}) =>
      responseOf(() =>
        (mod.action as (args: never) => unknown)({
          request: new Request(`${TEST_SITE_URL}${path}`, {
            method,
            headers: { authorization: `Bearer ${ana.token}`, "content-type": "application/json" },
            body: bytes,
          }),
          context: h.context(),
          params,
        } as never),
      );
    const patched = await send(orgRoute, "PATCH", `/api/orgs/${practice}`, { id: practice });
    expect(patched.status).toBe(400);
    expect(await patched.json()).toMatchObject({ code: "bad_json" });
    expect(await orgName()).toBe("Clinique Ana");
    const created = await send(orgsRoute, "POST", "/api/orgs");
    expect(created.status).toBe(400);
    expect(await created.json()).toMatchObject({ code: "bad_json" });
  });

  // ---- A: switch-org's redirect target ----

  it.each(["/\t/evil.example", "/\r\n/evil.example", "/.//evil.example", "/\\evil.example", "https:evil.example"])(
    "switching organisation with redirectTo=%j stays on this site",
    async (redirectTo) => {
      const context = h.context();
      context.set(userContext, { id: ana.id, email: ana.email });
      const res = await responseOf(() =>
        switchRoute.action({
          request: new Request(`${TEST_SITE_URL}/_org`, {
            method: "POST",
            body: new URLSearchParams({ intent: "switch", org_id: practice, redirectTo }),
          }),
          context,
          params: {},
        } as never),
      );
      expect(res.status).toBe(303);
      const location = res.headers.get("location") ?? "";
      expect(location).toMatch(/^\/(?![/\\])/);
      expect(new URL(location, TEST_SITE_URL).origin).toBe(new URL(TEST_SITE_URL).origin);
    },
  );

  // ---- the same shapes, generated ----

  it("generated names, bodies and cookies never make the organisation API or pages answer 5xx (fast-check)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          poisonString,
          hostileString.filter((s) => s.length < 300),
        ),
        async (name) => {
          for (const [mod, method, path, params] of [
            [orgsRoute, "POST", "/api/orgs", {}],
            [orgRoute, "PATCH", `/api/orgs/${practice}`, { id: practice }],
          ] as const) {
            const res = await callRoute(h, mod, { method, path, params, token: ana.token, body: { name } });
            expect(res.status).toBeLessThan(500);
          }
        },
      ),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    await fc.assert(
      fc.asyncProperty(invalidUtf8Body, async (body) => {
        const res = await responseOf(() =>
          orgRoute.action({
            request: new Request(`${TEST_SITE_URL}/api/orgs/${practice}`, {
              method: "PATCH",
              headers: { authorization: `Bearer ${ana.token}`, "content-type": "application/json" },
              body,
            }),
            context: h.context(),
            params: { id: practice },
          } as never),
        );
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ code: "bad_json" });
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    await fc.assert(
      fc.asyncProperty(hostileCookieHeader, async (cookie) => {
        expect(() => readOrgCookie(cookie)).not.toThrow();
        expect((await page("/dashboard", { cookie })).status).toBeLessThan(500);
        const api = await callRoute(h, patientsRoute, {
          method: "GET",
          path: "/api/patients",
          token: ana.token,
          headers: { cookie },
        });
        expect(api.status).toBeLessThan(500);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    expect(await orgName()).not.toContain("\ufffd");
  });
});
