// SPEC §4 Session expiry, Failed logins; SPEC §3/§8 auth errors (last 5, reported contexts, recent window).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ANA, BEA, createHarness, flush, signIn, T0, useAuthClock } from "#tests/fixtures/auth-client-fakes.ts";

beforeEach(() => useAuthClock());
afterEach(() => vi.useRealTimers());

const TOAST = "t(common:toasts.sessionExpired)";

describe("checkSession and session expiry", () => {
  it("a user from the auth server refreshes the user and the last check time", async () => {
    const h = createHarness();
    signIn(h);
    await vi.advanceTimersByTimeAsync(10_000);
    h.auth.getUser = () => Promise.resolve({ data: { user: BEA }, error: null });
    await expect(h.store.checkSession()).resolves.toBe(true);
    expect(h.store.getState()).toMatchObject({ user: BEA, lastSessionCheck: T0 + 10_000, authProcessing: false });
    expect(h.toasts).toEqual([]);
  });

  it("a failure with a user set: clears the user, shows the translated toast, redirects to /login exactly 2000 ms later", async () => {
    const h = createHarness({ pathname: "/dashboard" });
    signIn(h);
    h.auth.getUser = () => Promise.resolve({ data: { user: null }, error: { message: "JWT expired", status: 401 } });
    await expect(h.store.checkSession()).resolves.toBe(false);
    expect(h.store.getState().user).toBeNull();
    expect(h.toasts).toEqual([TOAST]);
    expect(h.location.assigned).toEqual([]);

    await vi.advanceTimersByTimeAsync(1999);
    expect(h.location.assigned).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.location.assigned).toEqual(["/login"]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(h.location.assigned).toEqual(["/login"]);
  });

  it("redirects to the login page of the current language", async () => {
    const h = createHarness({ pathname: "/fr/coding" });
    signIn(h);
    h.auth.getUser = () => Promise.resolve({ data: { user: null }, error: null });
    await h.store.checkSession();
    await vi.advanceTimersByTimeAsync(2000);
    expect(h.location.assigned).toEqual(["/fr/login"]);
  });

  it("a thrown error counts as a failure too", async () => {
    const h = createHarness({ pathname: "/es/settings" });
    signIn(h);
    h.auth.getUser = () => Promise.reject(new Error("Failed to fetch"));
    await h.store.checkSession();
    expect(h.toasts).toEqual([TOAST]);
    await vi.advanceTimersByTimeAsync(2000);
    expect(h.location.assigned).toEqual(["/es/login"]);
  });

  it("shows the toast but does not redirect when already on /fr/login", async () => {
    const h = createHarness({ pathname: "/fr/login" });
    signIn(h);
    h.auth.getUser = () => Promise.resolve({ data: { user: null }, error: { message: "Auth session missing!" } });
    await h.store.checkSession();
    expect(h.toasts).toEqual([TOAST]);
    await vi.advanceTimersByTimeAsync(5000);
    expect(h.location.assigned).toEqual([]);
  });

  it("does not redirect if the user reached a login page during the 2 s", async () => {
    const h = createHarness({ pathname: "/dashboard" });
    signIn(h);
    h.auth.getUser = () => Promise.resolve({ data: { user: null }, error: null });
    await h.store.checkSession();
    await vi.advanceTimersByTimeAsync(1000);
    h.location.pathname = "/login";
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.location.assigned).toEqual([]);
  });

  it("without a previous user: no toast, no redirect, no error entry", async () => {
    const h = createHarness();
    h.auth.getUser = () => Promise.resolve({ data: { user: null }, error: { message: "Auth session missing!" } });
    await expect(h.store.checkSession()).resolves.toBe(false);
    await vi.advanceTimersByTimeAsync(5000);
    expect(h.toasts).toEqual([]);
    expect(h.location.assigned).toEqual([]);
    expect(h.store.getState().errors).toEqual([]);
  });

  it("records a session_expired auth error, reported with severity high; a second failed check does not toast again", async () => {
    const h = createHarness();
    signIn(h);
    h.auth.getUser = () =>
      Promise.resolve({ data: { user: null }, error: { message: "JWT expired", code: "bad_jwt", status: 401 } });
    await h.store.checkSession();
    await h.store.checkSession();
    expect(h.store.getState().errors).toEqual([
      { message: "JWT expired", code: "bad_jwt", status: 401, timestamp: T0, context: "session_expired" },
    ]);
    expect(h.reported).toEqual([
      {
        message: "JWT expired",
        type: "auth",
        severity: "high",
        context: { context: "session_expired", code: "bad_jwt", status: 401 },
      },
    ]);
    expect(h.toasts).toEqual([TOAST]);
    await vi.advanceTimersByTimeAsync(2000);
    expect(h.location.assigned).toEqual(["/login"]);
  });
});

describe("failed logins", () => {
  const invalid = { message: "Invalid login credentials", code: "invalid_credentials", status: 400 };

  it("counts failures; the 4th (more than 3) logs a security concern and adds a high security entry, not the 3rd", async () => {
    const h = createHarness({ pathname: "/login" });
    for (let i = 1; i <= 3; i++) {
      h.store.recordLoginFailure(invalid);
      expect(h.store.getState()).toMatchObject({ loginAttempts: i, lastLoginAttempt: Date.now() });
      await vi.advanceTimersByTimeAsync(1000);
    }
    expect(h.warnings).toEqual([]);
    expect(h.reported.filter((r) => r.type === "security")).toEqual([]);

    h.store.recordLoginFailure(invalid);
    expect(h.store.getState()).toMatchObject({ loginAttempts: 4, lastLoginAttempt: T0 + 3000 });
    expect(h.warnings).toEqual([{ message: "auth: security concern, repeated failed logins", details: { loginAttempts: 4 } }]);
    expect(h.reported.filter((r) => r.type === "security")).toEqual([
      { message: "Multiple failed login attempts (4)", type: "security", severity: "high", context: { loginAttempts: 4 } },
    ]);
  });

  it("every failure is a signIn auth error reported with severity high", () => {
    const h = createHarness({ pathname: "/login" });
    h.store.recordLoginFailure(invalid);
    expect(h.store.getState().errors).toEqual([
      { message: "Invalid login credentials", code: "invalid_credentials", status: 400, timestamp: T0, context: "signIn" },
    ]);
    expect(h.reported).toEqual([
      {
        message: "Invalid login credentials",
        type: "auth",
        severity: "high",
        context: { context: "signIn", code: "invalid_credentials", status: 400 },
      },
    ]);
  });

  it("success resets the counter", () => {
    const h = createHarness({ pathname: "/login" });
    h.store.recordLoginFailure(invalid);
    h.store.recordLoginFailure(invalid);
    h.store.recordLoginSuccess();
    expect(h.store.getState()).toMatchObject({ loginAttempts: 0, lastLoginAttempt: null });
    h.store.recordLoginFailure(invalid);
    h.store.recordLoginFailure(invalid);
    h.store.recordLoginFailure(invalid);
    expect(h.warnings).toEqual([]);
  });
});

describe("auth errors", () => {
  it("keeps the last 5, oldest dropped first", async () => {
    const h = createHarness();
    for (let i = 1; i <= 7; i++) {
      h.store.pushError({ message: `error ${i}`, context: "refresh" });
      await vi.advanceTimersByTimeAsync(1);
    }
    expect(h.store.getState().errors.map((e) => e.message)).toEqual(["error 3", "error 4", "error 5", "error 6", "error 7"]);
  });

  it("reports only the signIn and session_expired contexts", () => {
    const h = createHarness();
    h.store.pushError({ message: "a", context: "refresh" });
    h.store.pushError({ message: "b", context: "signUp" });
    h.store.pushError({ message: "c", context: "signIn", code: "x", status: 429 });
    h.store.pushError({ message: "d", context: "session_expired" });
    expect(h.reported.map((r) => [r.message, r.severity])).toEqual([
      ["c", "high"],
      ["d", "high"],
    ]);
  });

  it("recent errors are those of the last 5 minutes", async () => {
    const h = createHarness();
    h.store.pushError({ message: "old", context: "refresh" });
    await vi.advanceTimersByTimeAsync(60_000);
    h.store.pushError({ message: "new", context: "refresh" });
    await vi.advanceTimersByTimeAsync(240_000); // "old" is exactly 5 min old
    expect(h.store.getRecentErrors().map((e) => e.message)).toEqual(["old", "new"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.store.getRecentErrors().map((e) => e.message)).toEqual(["new"]);
  });
});

describe("subscribe", () => {
  it("notifies on every change and stops after unsubscribe", async () => {
    const h = createHarness();
    let calls = 0;
    const unsubscribe = h.store.subscribe(() => calls++);
    signIn(h, ANA);
    expect(calls).toBe(1);
    unsubscribe();
    h.auth.emit("SIGNED_OUT", null);
    await flush();
    expect(calls).toBe(1);
  });
});
