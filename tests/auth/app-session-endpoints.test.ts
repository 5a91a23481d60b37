import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as logout } from "#app/routes/resources/api-auth-logout.ts";
import { loader as publicConfig } from "#app/routes/resources/api-public-config.ts";
import { createConfirmedUser, createTestAuth, signedInClient, type TestAuth } from "#tests/setup/auth.ts";
import { createTestContext } from "#tests/setup/context.ts";

// The app's own session endpoints (SPEC §7), called as React Router calls them, over the embedded auth.
let t: TestAuth;
beforeAll(async () => {
  t = await createTestAuth();
});
afterAll(() => t.close());

const context = () => createTestContext({ db: t.db, auth: t.auth });

describe("GET /api/public-config", () => {
  it("gives the browser the page's origin and the anon key, never the service-role key", async () => {
    const res = (await publicConfig({
      request: new Request("http://murmur.test/api/public-config"),
      context: context(),
      params: {},
    } as never)) as Response;
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({
      supabaseUrl: "http://murmur.test",
      supabaseAnonKey: t.auth.keys.anonKey,
      buildId: "test-build",
      locales: ["en", "fr", "es"],
    });
    expect(JSON.stringify(body)).not.toContain(t.auth.keys.serviceRoleKey);
  });
});

describe("POST /api/auth/logout", () => {
  const call = (headers: Record<string, string>, query = "") =>
    logout({
      request: new Request(`http://murmur.test/api/auth/logout${query}`, { method: "POST", headers }),
      context: context(),
      params: {},
    } as never) as Promise<Response>;

  it("revokes the session behind the bearer token and expires the cookies", async () => {
    const user = await createConfirmedUser(t, "leaving@murmur.test", "Leaving-Pass-1");
    const client = await signedInClient(t, user, "Leaving-Pass-1");
    const token = (await client.auth.getSession()).data.session?.access_token ?? "";
    expect((await client.auth.getUser()).data.user?.id).toBe(user.id);

    const res = await call({ Authorization: `Bearer ${token}` }, "?d=1");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, upstreamStatus: 204 });
    expect(res.headers.getSetCookie().some((c) => c.startsWith("sb-murmur-auth-token=;") && c.includes("Max-Age=0"))).toBe(true);
    // The same access token no longer opens anything.
    const after = await client.auth.getUser();
    expect(after.data.user).toBeNull();
  });

  it("counts an already-revoked token as logged out, and refuses a missing one", async () => {
    const res = await call({ Authorization: "Bearer not-a-jwt" });
    expect(res.status).toBe(200);
    const missing = await call({});
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ code: "no_authorization" });
  });
});
