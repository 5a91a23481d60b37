import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loader as callbackLoader } from "#app/routes/auth/callback.tsx";
import { action as loginAction, loader as loginLoader } from "#app/routes/auth/login.tsx";
import { loader as signupLoader } from "#app/routes/auth/signup.tsx";
import { middleware as localeMiddleware } from "#app/routes/locale.tsx";
import { loader as setLanguage } from "#app/routes/resources/set-language.ts";
import { action as setPrefs } from "#app/routes/resources/set-prefs.ts";
import { supabaseContext } from "#app/services/session/user-context.ts";
import { safeRedirectTarget, sameOriginPath } from "#app/utils/safe-redirect.ts";
import { createTestContext, responseOf } from "#tests/setup/context.ts";
import { REDIRECT_BYPASSES, redirectTarget } from "#tests/setup/fuzz.ts";

// Open redirects (outside probe, medium): `Location: /\t/evil.example` sends a browser to
// http://evil.example/ because URL parsing drops tabs and newlines and reads "\" as "/". Every
// client-supplied target must come back as the fallback or as a path that resolves to this origin.

const ORIGIN = "http://murmur.test";
const FALLBACK = "/fallback";
const user = { id: "6f1c1e2a-4d7b-4b8e-9a51-2f0a3d6c9e10", email: "ana@example.test" };

/** Where a browser on `page` goes with this Location header value (null: no usable URL). */
function browserDestination(location: string, page = `${ORIGIN}/fr/login?x=1`): URL | null {
  try {
    return new URL(location, page);
  } catch {
    return null;
  }
}

/** A Location value that is safe: a same-origin, header-clean, path-absolute reference. */
function expectSameOriginLocation(location: string | null) {
  expect(location).not.toBeNull();
  const value = location ?? "";
  expect(value.startsWith("/")).toBe(true);
  expect(value.startsWith("//")).toBe(false);
  // Header-clean: printable ASCII only, no backslash (what URL serialisation guarantees).
  expect([...value].every((c) => c > " " && c <= "~" && c !== "\\")).toBe(true);
  expect(browserDestination(value)?.origin).toBe(ORIGIN);
  expect(browserDestination(value, `https://app.example.org/a/b`)?.origin).toBe("https://app.example.org");
}

describe("safeRedirectTarget: a corpus of known bypasses", () => {
  it.each(REDIRECT_BYPASSES.map((v) => [JSON.stringify(v), v]))("%s stays on the site or falls back", (_, value) => {
    const result = safeRedirectTarget(value, FALLBACK, ORIGIN);
    if (result !== FALLBACK) expectSameOriginLocation(result);
  });

  it.each([
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "\t//evil.example",
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "\\/evil.example",
    "/.//evil.example",
    "/..//evil.example",
    "/a/../..//evil.example",
    "/%2e/%2e//evil.example",
    " //evil.example",
    "javascript:alert(1)",
    "java\tscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "http://evil.example",
    "https:evil.example",
    "//murmur.test@evil.example",
    "http://murmur.test@evil.example/",
    "",
  ])("%j falls back (the old /^\\/(?![/\\\\])/ check let some through)", (value) => {
    expect(safeRedirectTarget(value, FALLBACK, ORIGIN)).toBe(FALLBACK);
  });

  it.each([
    ["/dashboard", "/dashboard"],
    ["/fr/login?x=1#top", "/fr/login?x=1#top"],
    ["/accept-invite?token=abc_DEF-123", "/accept-invite?token=abc_DEF-123"],
    ["/%2f/evil.example", "/%2f/evil.example"],
    ["/\uff0f/evil.example", "/%EF%BC%8F/evil.example"],
    ["/x\r\nSet-Cookie: a=1", "/xSet-Cookie:%20a=1"],
    ["/\u0000x", "/%00x"],
    [`${ORIGIN}/settings?tab=1`, "/settings?tab=1"],
    ["dashboard", "/dashboard"],
  ])("%j becomes the same-origin path %j, re-serialised", (value, expected) => {
    expect(safeRedirectTarget(value, FALLBACK, ORIGIN)).toBe(expected);
    expectSameOriginLocation(expected);
  });

  it("refuses non-strings, over-long targets and a bad origin", () => {
    expect(sameOriginPath(null)).toBeNull();
    expect(sameOriginPath(42)).toBeNull();
    expect(sameOriginPath(`/${"a".repeat(2048)}`)).toBeNull();
    expect(sameOriginPath("/x", "not a url")).toBeNull();
    expect(sameOriginPath("/x")).toBe("/x");
  });

  it("holds for generated targets (fast-check)", () => {
    fc.assert(
      fc.property(redirectTarget, (value) => {
        const result = safeRedirectTarget(value, FALLBACK, ORIGIN);
        if (result !== FALLBACK) expectSameOriginLocation(result);
      }),
      { seed: 20_260_101, numRuns: 2_000 },
    );
  });
});

// ---- through the real routes ----

/** A stand-in for the per-request supabase client: every call succeeds, no second factor. */
function fakeSupabase() {
  const ok = async () => ({ data: {}, error: null });
  return {
    supabase: {
      auth: {
        signInWithPassword: ok,
        signInWithOtp: ok,
        exchangeCodeForSession: ok,
        verifyOtp: ok,
        mfa: { getAuthenticatorAssuranceLevel: async () => ({ data: { currentLevel: "aal1", nextLevel: "aal1" } }) },
      },
    },
    setCookies: [],
    headers: {},
  };
}

function contextWith(options: { signedIn?: boolean } = {}) {
  const context = createTestContext(options.signedIn ? { user } : {});
  context.set(supabaseContext, fakeSupabase() as never);
  return context;
}

/** The Location of a redirect, or the status when the route answered without one. */
async function locationOf(run: () => unknown): Promise<{ status: number; location: string | null }> {
  const res = await responseOf(run);
  return { status: res.status, location: res.headers.get("location") };
}

const HOSTILE = [
  "/\t/evil.example",
  "/%09/evil.example",
  "/\r\n/evil.example",
  "/x\r\nSet-Cookie: a=1",
  "//evil.example",
  "/\\evil.example",
  "/.//evil.example",
  "https:evil.example",
  "\uff0f\uff0fevil.example",
];

describe("client redirect targets through the routes", () => {
  it.each(HOSTILE)("GET /_lang?lng=en&redirectTo=%j is a 400 or a same-origin redirect, never a 500", async (target) => {
    const qs = new URLSearchParams({ lng: "en", redirectTo: target });
    const { status, location } = await locationOf(() =>
      setLanguage({ request: new Request(`${ORIGIN}/_lang?${qs}`), params: {}, context: createTestContext() } as never),
    );
    expect(status).toBeLessThan(500);
    if (status === 302) expectSameOriginLocation(location);
    else expect(status).toBe(400);
  });

  it("the probe's own URL, /_lang?lng=en&redirectTo=/%09/evil.example, is refused", async () => {
    const res = await responseOf(() =>
      setLanguage({
        request: new Request(`${ORIGIN}/_lang?lng=en&redirectTo=/%09/evil.example`),
        params: {},
        context: createTestContext(),
      } as never),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "invalid_language_request" });
  });

  it("/_lang still returns to a local page in the chosen language", async () => {
    const { status, location } = await locationOf(() =>
      setLanguage({
        request: new Request(`${ORIGIN}/_lang?lng=fr&redirectTo=${encodeURIComponent("/fr/login?x=1")}`),
        params: {},
        context: createTestContext(),
      } as never),
    );
    expect({ status, location }).toEqual({ status: 302, location: "/fr/login?x=1" });
  });

  it.each(["/login", "/fr/login", "/es/signup", "/signup"])(
    "a signed-in visitor on %s?redirectTo=<hostile> is sent to a page of this site",
    async (path) => {
      for (const target of HOSTILE) {
        const request = new Request(`${ORIGIN}${path}?${new URLSearchParams({ redirectTo: target })}`);
        const loader = path.endsWith("signup") ? signupLoader : loginLoader;
        const { status, location } = await locationOf(() =>
          loader({ request, params: {}, context: contextWith({ signedIn: true }) } as never),
        );
        expect(status).toBe(302);
        expectSameOriginLocation(location);
      }
    },
  );

  it("the sign-in form only carries a target the action would follow", async () => {
    const request = new Request(`${ORIGIN}/login?${new URLSearchParams({ redirectTo: "/\t/evil.example" })}`);
    const data = (await loginLoader({ request, params: {}, context: contextWith() } as never)) as { redirectTo: string };
    expect(data.redirectTo).toBe("");
    const good = new Request(`${ORIGIN}/fr/login?${new URLSearchParams({ redirectTo: "/fr/settings?tab=1" })}`);
    expect(((await loginLoader({ request: good, params: {}, context: contextWith() } as never)) as typeof data).redirectTo).toBe(
      "/fr/settings?tab=1",
    );
  });

  it.each(HOSTILE)("POST /login with redirectTo=%j lands on this site (not a 500)", async (target) => {
    for (const path of ["/login", "/fr/login"]) {
      const body = new URLSearchParams({ intent: "password", email: "ana@example.test", password: "x", redirectTo: target });
      const request = new Request(`${ORIGIN}${path}`, { method: "POST", body });
      const { status, location } = await locationOf(() => loginAction({ request, params: {}, context: contextWith() } as never));
      expect(status).toBe(302);
      expectSameOriginLocation(location);
    }
  });

  it("POST /login keeps a good target", async () => {
    const body = new URLSearchParams({ intent: "password", email: "ana@example.test", password: "x", redirectTo: "/settings" });
    const request = new Request(`${ORIGIN}/login`, { method: "POST", body });
    expect(await locationOf(() => loginAction({ request, params: {}, context: contextWith() } as never))).toEqual({
      status: 302,
      location: "/settings",
    });
  });

  it.each(HOSTILE)("GET /auth/callback?next=%j lands on this site", async (next) => {
    for (const path of ["/auth/callback", "/es/auth/callback"]) {
      const request = new Request(`${ORIGIN}${path}?${new URLSearchParams({ code: "abc", next })}`);
      const { status, location } = await locationOf(() =>
        callbackLoader({ request, params: {}, context: contextWith() } as never),
      );
      expect(status).toBe(302);
      expectSameOriginLocation(location);
    }
  });

  it.each(HOSTILE)("POST /_prefs with redirectTo=%j lands on this site", async (redirectTo) => {
    const request = new Request(`${ORIGIN}/_prefs`, {
      method: "POST",
      body: new URLSearchParams({ theme: "dark", redirectTo }),
    });
    const { status, location } = await locationOf(() => setPrefs({ request, params: {}, context: createTestContext() } as never));
    expect(status).toBeLessThan(500);
    if (status === 303) expectSameOriginLocation(location);
  });

  it("/en//evil.example does not 301 to //evil.example", async () => {
    const guard = localeMiddleware[0] as (args: unknown, next: unknown) => unknown;
    for (const path of ["/en//evil.example", "/en///evil.example/x?y=1", "/en/.//evil.example"]) {
      const request = new Request(`${ORIGIN}${path}`);
      const { status, location } = await locationOf(() =>
        guard({ request, params: { lang: "en" }, context: createTestContext() }, () => {}),
      );
      expect(status).toBe(301);
      expectSameOriginLocation(location);
    }
  });
});
