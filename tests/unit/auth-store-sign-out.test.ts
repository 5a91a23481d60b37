// SPEC §4 Sign-out, §7 POST /api/auth/logout, §8 (server failure non-fatal), §9 timings.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createHarness, flush, type Harness, never, signIn, useAuthClock } from "#tests/fixtures/auth-client-fakes.ts";

beforeEach(() => useAuthClock());
afterEach(() => vi.useRealTimers());

const LOGOUT = "fetch POST /api/auth/logout";

/** Signed in (last check = now, background tasks done), visible, on /dashboard, with a little local data. */
async function signedIn(options: Parameters<typeof createHarness>[0] = {}): Promise<Harness> {
  const h = createHarness({
    local: { recentClaims: "[]", "murmur-org": "org-1", theme: "dark" },
    cookies: { "sb-murmur-auth-token": "base64-abc", "murmur-org": "org-1", i18n_redirected: "fr" },
    ...options,
  });
  signIn(h);
  await vi.advanceTimersByTimeAsync(0);
  h.log.length = 0;
  return h;
}

/** Only the calls that show the sign-out's course (not each storage removal). */
function course(h: Harness): string[] {
  return h.log.filter(
    (line) => !line.startsWith("local.remove") && !line.startsWith("session.remove") && !line.startsWith("cookie.remove"),
  );
}

function logoutInit(h: Harness): RequestInit {
  const call = h.fetchCalls.find((c) => c.url.startsWith("/api/auth/logout"));
  if (!call?.init) throw new Error("no logout call");
  return call.init;
}

describe("choosing the path", () => {
  it("full when visible and the last user check is recent", async () => {
    const h = await signedIn();
    await expect(h.store.signOut()).resolves.toBe("full");
  });

  it("fast when the tab is hidden", async () => {
    const h = await signedIn();
    h.setVisibility("hidden");
    h.log.length = 0;
    await expect(h.store.signOut()).resolves.toBe("fast");
  });

  it("fast when the last user check is more than 120000 ms old, full at exactly 120000 ms", async () => {
    const h = await signedIn();
    await vi.advanceTimersByTimeAsync(120_000);
    await expect(h.store.signOut()).resolves.toBe("full");
    await vi.advanceTimersByTimeAsync(80); // let the first sign-out finish its redirect retry

    const g = await signedIn();
    await vi.advanceTimersByTimeAsync(120_001);
    await expect(g.store.signOut()).resolves.toBe("fast");
  });

  it("fast when asked for", async () => {
    const h = await signedIn();
    await expect(h.store.signOut({ fast: true })).resolves.toBe("fast");
  });

  it("fast when the user was never checked", async () => {
    const h = createHarness();
    await expect(h.store.signOut()).resolves.toBe("fast");
  });
});

describe("capturing the access token", () => {
  it("sends it as a bearer token to POST /api/auth/logout, before local data is cleared", async () => {
    const h = await signedIn();
    await h.store.signOut();
    const init = logoutInit(h);
    expect(init.method).toBe("POST");
    expect(init.headers).toEqual({ Authorization: "Bearer access-token-1" });
    expect(init.keepalive).toBe(true);
    expect(init.signal).toBeInstanceOf(AbortSignal);
    expect(h.fetchCalls.map((c) => c.url)).toEqual(["/api/auth/logout"]);
    // Token first, then cleanup, then the server call.
    expect(h.log.indexOf("auth.getSession")).toBeLessThan(h.log.indexOf("cookie.remove sb-murmur-auth-token"));
    expect(h.log.indexOf("cookie.remove sb-murmur-auth-token")).toBeLessThan(h.log.indexOf(LOGOUT));
  });

  it("fast path waits at most 300 ms for getSession", async () => {
    const h = await signedIn();
    h.auth.getSession = never;
    void h.store.signOut({ fast: true });
    await vi.advanceTimersByTimeAsync(299);
    expect(course(h)).toEqual(["auth.getSession"]);
    await vi.advanceTimersByTimeAsync(1);
    await flush();
    expect(course(h)).toEqual([
      "auth.getSession",
      "warn auth: sign-out went on without the access token",
      "org.clear",
      LOGOUT,
      'auth.signOut {"scope":"local"}',
      "location.assign /login",
    ]);
    expect(logoutInit(h).headers).toEqual({});
  });

  it("full path waits at most 600 ms for getSession", async () => {
    const h = await signedIn();
    h.auth.getSession = never;
    void h.store.signOut();
    await vi.advanceTimersByTimeAsync(599);
    expect(course(h)).toEqual(["auth.getSession"]);
    await vi.advanceTimersByTimeAsync(1);
    await flush();
    expect(course(h)).toEqual([
      "auth.getSession",
      "warn auth: sign-out went on without the access token",
      "org.clear",
      LOGOUT,
      // 401 without a token still means "signed out" for the server (tolerated): no client fallback.
      "location.assign /login",
    ]);
  });
});

describe("fast path", () => {
  it("does not wait for the server or the client sign-out", async () => {
    const h = await signedIn();
    h.respond = never;
    h.auth.signOut = never;
    const mode = await h.store.signOut({ fast: true });
    expect(mode).toBe("fast");
    expect(course(h)).toEqual([
      "auth.getSession",
      "org.clear",
      LOGOUT,
      'auth.signOut {"scope":"local"}',
      "location.assign /login",
    ]);
  });
});

describe("full path", () => {
  it("waits for the server; a success needs no client sign-out", async () => {
    const h = await signedIn();
    let answer: (res: Response) => void = () => {};
    h.respond = () => new Promise<Response>((resolve) => (answer = resolve));
    const done = h.store.signOut();
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.location.assigned).toEqual([]);
    answer(new Response(JSON.stringify({ ok: true }), { status: 200 }));
    await expect(done).resolves.toBe("full");
    expect(course(h)).toEqual(["auth.getSession", "org.clear", LOGOUT, "location.assign /login"]);
  });

  it.each([401, 403, 404])("treats a %i from the server as signed out", async (status) => {
    const h = await signedIn();
    h.respond = () => Promise.resolve(new Response(null, { status }));
    await h.store.signOut();
    expect(course(h)).toEqual(["auth.getSession", "org.clear", LOGOUT, "location.assign /login"]);
  });

  it("a server error falls back to the client sign-out (local scope), then redirects", async () => {
    const h = await signedIn();
    h.respond = () => Promise.resolve(new Response(null, { status: 502 }));
    await h.store.signOut();
    expect(course(h)).toEqual([
      "auth.getSession",
      "org.clear",
      LOGOUT,
      "warn auth: server logout failed (non-fatal)",
      'auth.signOut {"scope":"local"}',
      "location.assign /login",
    ]);
  });

  it("a network failure is non-fatal too", async () => {
    const h = await signedIn();
    h.respond = () => Promise.reject(new TypeError("Failed to fetch"));
    await h.store.signOut();
    expect(course(h)).toEqual([
      "auth.getSession",
      "org.clear",
      LOGOUT,
      "warn auth: server logout failed (non-fatal)",
      'auth.signOut {"scope":"local"}',
      "location.assign /login",
    ]);
  });

  it("aborts the server call at 1200 ms even if it never answers, then gives the client sign-out 1000 ms", async () => {
    const h = await signedIn();
    h.respond = never; // ignores its abort signal entirely
    h.auth.signOut = never;
    void h.store.signOut();
    await flush();
    expect(course(h)).toEqual(["auth.getSession", "org.clear", LOGOUT]);
    const signal = logoutInit(h).signal as AbortSignal;

    await vi.advanceTimersByTimeAsync(1199);
    expect(signal.aborted).toBe(false);
    expect(course(h)).toEqual(["auth.getSession", "org.clear", LOGOUT]);
    await vi.advanceTimersByTimeAsync(1);
    await flush();
    expect(signal.aborted).toBe(true);
    expect(course(h)).toEqual([
      "auth.getSession",
      "org.clear",
      LOGOUT,
      "warn auth: server logout failed (non-fatal)",
      'auth.signOut {"scope":"local"}',
    ]);

    await vi.advanceTimersByTimeAsync(999);
    expect(h.location.assigned).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await flush();
    expect(h.location.assigned).toEqual(["/login"]);
    expect(course(h).slice(-2)).toEqual(["warn auth: client sign-out timed out", "location.assign /login"]);
  });

  it("a failing client sign-out still ends at /login", async () => {
    const h = await signedIn();
    h.respond = () => Promise.resolve(new Response(null, { status: 500 }));
    h.auth.signOut = () => Promise.resolve({ error: { message: "Network connection failed" } });
    await h.store.signOut();
    expect(course(h).slice(-3)).toEqual([
      'auth.signOut {"scope":"local"}',
      "warn auth: client sign-out failed",
      "location.assign /login",
    ]);
  });

  it("adds ?d=1 to the server call in debug mode", async () => {
    const h = await signedIn();
    h.hooks.debug = true;
    await h.store.signOut();
    expect(h.fetchCalls.map((c) => c.url)).toEqual(["/api/auth/logout?d=1"]);
  });
});

describe("redirect", () => {
  it("goes to the current language's login page and tries again after exactly 80 ms", async () => {
    const h = await signedIn({ pathname: "/es/coding" });
    await h.store.signOut();
    expect(h.location.assigned).toEqual(["/es/login"]);
    await vi.advanceTimersByTimeAsync(79);
    expect(h.location.assigned).toEqual(["/es/login"]);
    expect(h.store.getState().signingOut).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.location.assigned).toEqual(["/es/login", "/es/login"]);
    expect(h.store.getState()).toMatchObject({ signingOut: false, authProcessing: false });
  });

  it("does not try again once the page is on the login page", async () => {
    const h = await signedIn({ pathname: "/fr/dashboard" });
    h.location.followAssign = true;
    await h.store.signOut({ fast: true });
    await vi.advanceTimersByTimeAsync(500);
    expect(h.location.assigned).toEqual(["/fr/login"]);
  });
});

describe("state and local data", () => {
  it("clears the user and local data, keeps unrelated items, and calls the organisation hook", async () => {
    const h = await signedIn();
    await h.store.signOut();
    expect(h.store.getState().user).toBeNull();
    expect(h.local.keys()).toEqual(["murmur-migration", "theme"]);
    expect([...h.cookies.keys()]).toEqual(["i18n_redirected"]);
    expect(h.log).toContain("org.clear");
  });

  it("a second call while one runs joins it: one server call", async () => {
    const h = await signedIn();
    const first = h.store.signOut();
    const second = h.store.signOut({ fast: true });
    expect(second).toBe(first);
    await first;
    expect(h.fetchCalls).toHaveLength(1);
  });

  it("SIGNED_IN arriving during the sign-out is ignored", async () => {
    const h = await signedIn();
    h.respond = never;
    void h.store.signOut();
    await flush();
    h.auth.emit("SIGNED_IN", { access_token: "t", user: { id: "someone-else" } });
    await vi.advanceTimersByTimeAsync(0);
    expect(h.store.getState().user).toBeNull();
    expect(h.log).not.toContain("org.load");
  });
});
