// SPEC §4 Session events: what each supabase-js auth event does to the browser's auth store.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { INITIAL_AUTH_STATE } from "#app/services/auth-client/auth-store.ts";
import {
  ANA,
  BEA,
  createHarness,
  flush,
  never,
  sessionFor,
  signIn,
  T0,
  useAuthClock,
} from "#tests/fixtures/auth-client-fakes.ts";

beforeEach(() => useAuthClock());
afterEach(() => vi.useRealTimers());

const BACKGROUND_TASKS = ["local.remove currentOrgId", "local.remove currentOrganization", "local.remove organizations"];

describe("SIGNED_IN", () => {
  it("stores the user, resets the login attempts, then runs migration cleanup, org load and legacy cleanup in the background", async () => {
    const h = createHarness({ local: { finalized_recording_1: "x" } });
    h.store.recordLoginFailure({ message: "Invalid login credentials", status: 400 });
    h.store.recordLoginFailure({ message: "Invalid login credentials", status: 400 });
    expect(h.store.getState().loginAttempts).toBe(2);
    h.log.length = 0;

    signIn(h);
    expect(h.store.getState()).toMatchObject({
      user: ANA,
      loginAttempts: 0,
      lastSessionCheck: T0,
      authInitialized: true,
      loading: false,
    });
    // Deferred out of supabase-js's callback (its auth lock): nothing ran yet.
    expect(h.log).toEqual([]);

    await vi.advanceTimersByTimeAsync(0);
    expect(h.log).toEqual(["local.remove finalized_recording_1", "org.load", ...BACKGROUND_TASKS]);
  });

  it("is ignored while a sign-out is in progress", async () => {
    const h = createHarness();
    signIn(h);
    await vi.advanceTimersByTimeAsync(0);
    h.auth.getSession = never; // sign-out waits for the token
    void h.store.signOut();
    expect(h.store.getState().signingOut).toBe(true);
    h.log.length = 0;

    h.auth.emit("SIGNED_IN", sessionFor(BEA));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.store.getState().user).toEqual(ANA);
    expect(h.log).not.toContain("org.load");
  });
});

describe("SIGNED_OUT", () => {
  it("clears the auth state, the organisation state, the stored organisation key and the organisation cookie", () => {
    const h = createHarness({
      local: { "murmur-org": "org-1", theme: "dark" },
      cookies: { "murmur-org": "org-1", i18n_redirected: "fr" },
    });
    signIn(h);
    h.log.length = 0;

    h.auth.emit("SIGNED_OUT", null);
    expect(h.store.getState()).toMatchObject({
      user: null,
      lastSessionCheck: null,
      authProcessing: false,
      authInitialized: true,
    });
    expect(h.log.slice(0, 3)).toEqual(["org.clear", "local.remove murmur-org", "cookie.remove murmur-org"]);
    expect(h.local.keys()).toEqual(["theme"]);
    expect([...h.cookies.keys()]).toEqual(["i18n_redirected"]);
  });

  it("one nobody asked for here (revoked on the server) is an expired session: toast, then /login at 2 s", () => {
    const h = createHarness({ pathname: "/fr/dashboard" });
    signIn(h);
    h.log.length = 0;
    h.auth.emit("SIGNED_OUT", null);
    expect(h.toasts).toHaveLength(1);
    vi.advanceTimersByTime(1999);
    expect(h.log.some((l) => l.startsWith("location.assign"))).toBe(false);
    vi.advanceTimersByTime(1);
    expect(h.log).toContain("location.assign /fr/login");
  });

  it("a second sign-out event with no user shows nothing", () => {
    const h = createHarness();
    h.auth.emit("SIGNED_OUT", null);
    expect(h.toasts).toHaveLength(0);
  });

  it("runs even while the tab is hidden", () => {
    const h = createHarness();
    signIn(h);
    h.setVisibility("hidden");
    h.auth.emit("SIGNED_OUT", null);
    expect(h.store.getState().user).toBeNull();
  });
});

describe("TOKEN_REFRESHED, USER_UPDATED, PASSWORD_RECOVERY", () => {
  it("TOKEN_REFRESHED updates the user and the last session check time", async () => {
    const h = createHarness();
    signIn(h);
    await vi.advanceTimersByTimeAsync(30_000);
    h.auth.emit("TOKEN_REFRESHED", sessionFor(BEA, "access-token-2"));
    expect(h.store.getState()).toMatchObject({ user: BEA, lastSessionCheck: T0 + 30_000 });
  });

  it("USER_UPDATED updates the user only", async () => {
    const h = createHarness();
    signIn(h);
    await vi.advanceTimersByTimeAsync(5_000);
    h.auth.emit("USER_UPDATED", sessionFor({ ...ANA, email: "ana.new@example.test" }));
    expect(h.store.getState()).toMatchObject({ user: { id: ANA.id, email: "ana.new@example.test" }, lastSessionCheck: T0 });
  });

  it("PASSWORD_RECOVERY raises the recovering flag for the update-password page, until it is cleared", () => {
    const h = createHarness({ pathname: "/fr/update-password" });
    h.auth.emit("PASSWORD_RECOVERY", sessionFor(ANA));
    expect(h.store.getState()).toMatchObject({ recovering: true, user: ANA });
    h.store.clearRecovery();
    expect(h.store.getState().recovering).toBe(false);
  });
});

describe("INITIAL_SESSION", () => {
  it("with a session: sets the user, marks auth initialised and runs the background tasks", async () => {
    const h = createHarness();
    expect(h.store.getState()).toEqual(INITIAL_AUTH_STATE);
    h.auth.emit("INITIAL_SESSION", sessionFor(ANA));
    expect(h.store.getState()).toMatchObject({ user: ANA, authInitialized: true, loading: false, lastSessionCheck: T0 });
    await vi.advanceTimersByTimeAsync(0);
    expect(h.log).toEqual(["org.load", ...BACKGROUND_TASKS]);
  });

  it("without a session: marks auth initialised with no user and no background tasks", async () => {
    const h = createHarness();
    h.auth.emit("INITIAL_SESSION", null);
    expect(h.store.getState()).toMatchObject({ user: null, authInitialized: true, loading: false });
    await vi.advanceTimersByTimeAsync(0);
    expect(h.log).toEqual([]);
    expect(h.errors).toEqual([]);
  });

  it.each(["/login", "/fr/login", "/es/login", "/fr/login/"])("is ignored on the login page (%s)", async (pathname) => {
    const h = createHarness({ pathname });
    h.auth.emit("INITIAL_SESSION", sessionFor(ANA));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.store.getState()).toEqual(INITIAL_AUTH_STATE);
    expect(h.log).toEqual([]);
  });

  it("is not ignored on pages that merely contain 'login'", () => {
    const h = createHarness({ pathname: "/fr/login-help" });
    h.auth.emit("INITIAL_SESSION", sessionFor(ANA));
    expect(h.store.getState().user).toEqual(ANA);
  });
});

describe("session lost", () => {
  it.each(["TOKEN_REFRESHED", "USER_UPDATED", "INITIAL_SESSION", "SIGNED_IN"] as const)(
    "%s without a session while a user was set: logs the error and clears auth and organisation state",
    (event) => {
      const h = createHarness({ local: { "murmur-org": "org-1" }, cookies: { "murmur-org": "org-1" } });
      signIn(h);
      h.log.length = 0;
      h.auth.emit(event, null);
      expect(h.store.getState().user).toBeNull();
      expect(h.errors).toEqual([{ message: "auth: session lost", details: { event } }]);
      expect(h.log).toEqual(["error auth: session lost", "org.clear", "local.remove murmur-org", "cookie.remove murmur-org"]);
    },
  );

  it("an event without a session and no user set is not a loss", () => {
    const h = createHarness();
    h.auth.emit("TOKEN_REFRESHED", null);
    expect(h.errors).toEqual([]);
    expect(h.log).toEqual([]);
  });
});

describe("events while the tab is hidden", () => {
  it("are queued and replayed in arrival order when visible; SIGNED_IN and SIGNED_OUT run at once", () => {
    const h = createHarness();
    const seen: (string | null)[] = [];
    h.store.subscribe(() => {
      const email = h.store.getState().user?.email ?? null;
      if (seen.at(-1) !== email) seen.push(email);
    });
    signIn(h);
    h.setVisibility("hidden");

    h.auth.emit("USER_UPDATED", sessionFor(BEA));
    h.auth.emit("TOKEN_REFRESHED", sessionFor({ ...ANA, email: "ana.2@example.test" }));
    expect(h.store.getState().user).toEqual(ANA); // queued, not applied

    h.auth.emit("SIGNED_OUT", null); // immediate
    expect(h.store.getState().user).toBeNull();
    h.auth.emit("SIGNED_IN", sessionFor(ANA)); // immediate
    expect(h.store.getState().user).toEqual(ANA);
    h.auth.emit("USER_UPDATED", sessionFor({ ...ANA, email: "ana.3@example.test" }));

    h.setVisibility("visible");
    expect(seen).toEqual([
      "ana@example.test",
      null,
      "ana@example.test",
      "bea@example.test",
      "ana.2@example.test",
      "ana.3@example.test",
    ]);
    expect(h.store.getState().user?.email).toBe("ana.3@example.test");
  });

  it("a queued INITIAL_SESSION marks auth initialised only once replayed", () => {
    const h = createHarness({ visibility: "hidden" });
    h.auth.emit("INITIAL_SESSION", sessionFor(ANA));
    expect(h.store.getState().authInitialized).toBe(false);
    h.setVisibility("visible");
    expect(h.store.getState()).toMatchObject({ authInitialized: true, user: ANA });
  });
});

describe("start()", () => {
  it("subscribes once; the stop function unsubscribes and later events are dropped", () => {
    const h = createHarness();
    expect(h.store.start()).toBe(h.store.start());
    h.store.start()();
    expect(h.auth.unsubscribed).toBe(true);
    h.auth.emit("SIGNED_IN", sessionFor(ANA));
    expect(h.store.getState().user).toBeNull();
  });

  it("setHooks replaces the organisation hooks registered later (e.g. by the organisation store)", async () => {
    const h = createHarness();
    const calls: string[] = [];
    h.store.setHooks({ onOrganisationLoad: () => void calls.push("late load") });
    signIn(h);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(["late load"]);
    expect(h.log).not.toContain("org.load");
  });

  it("a failing background task is logged and does not stop the others", async () => {
    const h = createHarness();
    h.store.setHooks({ onOrganisationLoad: () => Promise.reject(new Error("org service down")) });
    signIn(h);
    await vi.advanceTimersByTimeAsync(0);
    await flush();
    expect(h.log).toEqual([...BACKGROUND_TASKS, "error auth: organisation load failed"]);
    expect(h.errors.at(-1)?.details).toEqual({ error: "org service down" });
  });
});
