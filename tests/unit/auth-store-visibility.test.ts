// SPEC §4 Tab visibility (and the auto-refresh pause of §4 Session events), §9 timings.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createHarness, flush, type Harness, signIn, useAuthClock } from "#tests/fixtures/auth-client-fakes.ts";

beforeEach(() => useAuthClock());
afterEach(() => vi.useRealTimers());

const MIN = 60_000;

async function signedIn(pathname = "/dashboard"): Promise<Harness> {
  const h = createHarness({ pathname });
  signIn(h);
  await vi.advanceTimersByTimeAsync(0);
  h.log.length = 0;
  return h;
}

/** Hides the tab, waits `awayMs`, shows it again, and lets the handlers' promises settle. */
async function awayFor(h: Harness, awayMs: number): Promise<void> {
  h.setVisibility("hidden");
  await vi.advanceTimersByTimeAsync(awayMs);
  h.setVisibility("visible");
  await flush();
}

describe("auto refresh", () => {
  it("is paused while hidden and resumed when visible", async () => {
    const h = await signedIn();
    h.setVisibility("hidden");
    expect(h.log).toEqual(["auth.stopAutoRefresh"]);
    await vi.advanceTimersByTimeAsync(10_000);
    h.setVisibility("visible");
    expect(h.log.slice(0, 2)).toEqual(["auth.stopAutoRefresh", "auth.startAutoRefresh"]);
  });
});

describe("first handler: session refresh then refreshed-data", () => {
  it("refreshes the session, then fires murmur:refreshed-data; the second handler re-checks the user", async () => {
    const h = await signedIn();
    await awayFor(h, 10_000);
    expect(h.log).toEqual([
      "auth.stopAutoRefresh",
      "auth.startAutoRefresh",
      "auth.refreshSession",
      "auth.getUser",
      "emit murmur:refreshed-data",
    ]);
    expect(h.events).toEqual([{ name: "murmur:refreshed-data", detail: undefined }]);
  });

  it("when nobody is signed in it only reads the session (no forced refresh)", async () => {
    const h = createHarness();
    await awayFor(h, 10_000);
    expect(h.log).toEqual([
      "auth.stopAutoRefresh",
      "auth.startAutoRefresh",
      "auth.getSession",
      "auth.getUser",
      "emit murmur:refreshed-data",
    ]);
  });

  it("a failed refresh is logged and the event still fires", async () => {
    const h = await signedIn();
    h.auth.refreshSession = () => Promise.resolve({ data: { session: null }, error: { message: "Invalid Refresh Token" } });
    await awayFor(h, 10_000);
    expect(h.warnings).toEqual([
      { message: "auth: session refresh on visible failed", details: { error: "Invalid Refresh Token" } },
    ]);
    expect(h.events.map((e) => e.name)).toEqual(["murmur:refreshed-data"]);
  });

  it("runs at most every 1500 ms: not again after 1499 ms", async () => {
    const h = await signedIn();
    await awayFor(h, 10_000); // refresh at t
    await vi.advanceTimersByTimeAsync(500);
    h.setVisibility("hidden");
    await vi.advanceTimersByTimeAsync(999);
    h.setVisibility("visible"); // t + 1499
    await flush();
    expect(h.log.filter((l) => l === "auth.refreshSession")).toHaveLength(1);
    expect(h.events.filter((e) => e.name === "murmur:refreshed-data")).toHaveLength(1);
  });

  it("runs at most every 1500 ms: again at exactly 1500 ms", async () => {
    const h = await signedIn();
    await awayFor(h, 10_000);
    await vi.advanceTimersByTimeAsync(500);
    h.setVisibility("hidden");
    await vi.advanceTimersByTimeAsync(1000);
    h.setVisibility("visible"); // t + 1500
    await flush();
    expect(h.log.filter((l) => l === "auth.refreshSession")).toHaveLength(2);
    expect(h.events.filter((e) => e.name === "murmur:refreshed-data")).toHaveLength(2);
  });
});

describe("second handler: ignore window", () => {
  it("a change within 2000 ms of the previous one is ignored (no user re-check)", async () => {
    const h = await signedIn();
    await awayFor(h, 1999);
    expect(h.log).not.toContain("auth.getUser");
    // The other duties still run: auto refresh resumes and the (first) refresh happens.
    expect(h.log).toEqual(["auth.stopAutoRefresh", "auth.startAutoRefresh", "auth.refreshSession", "emit murmur:refreshed-data"]);
  });

  it("a change 2000 ms after the previous one is handled", async () => {
    const h = await signedIn();
    await awayFor(h, 2000);
    expect(h.log).toContain("auth.getUser");
  });

  it("the time away counts from when the tab was hidden, even if that change fell in the ignore window", async () => {
    const h = await signedIn();
    await awayFor(h, 500); // hidden at 0, visible at 500 (ignored)
    await vi.advanceTimersByTimeAsync(500);
    // Hidden again at 1000, only 500 ms after the previous change; back 5 min − 500 ms later. Measured
    // from 0 instead of 1000 that would be 5 min + 500 ms away and reload.
    await awayFor(h, 5 * MIN - 500);
    expect(h.location.reloads).toBe(0);
    expect(h.log).toContain("auth.getUser");
  });
});

describe("second handler: reload after a long absence", () => {
  it("no recording: re-checks the user at exactly 5 min away", async () => {
    const h = await signedIn();
    await awayFor(h, 5 * MIN);
    expect(h.location.reloads).toBe(0);
    expect(h.log).toContain("auth.getUser");
  });

  it("no recording: reloads after more than 5 min away, instead of re-checking", async () => {
    const h = await signedIn();
    await awayFor(h, 5 * MIN + 1);
    expect(h.location.reloads).toBe(1);
    expect(h.log).not.toContain("auth.getUser");
  });

  it("recording: no reload after 5 min 1 ms, nor at exactly 30 min", async () => {
    const h = await signedIn();
    h.hooks.recording = true;
    await awayFor(h, 5 * MIN + 1);
    expect(h.location.reloads).toBe(0);
    await vi.advanceTimersByTimeAsync(2000);
    await awayFor(h, 30 * MIN);
    expect(h.location.reloads).toBe(0);
    expect(h.log.filter((l) => l === "auth.getUser")).toHaveLength(2);
  });

  it("recording: reloads after more than 30 min away", async () => {
    const h = await signedIn();
    h.hooks.recording = true;
    await awayFor(h, 30 * MIN + 1);
    expect(h.location.reloads).toBe(1);
  });

  it("a recorder registered later through setHooks is consulted", async () => {
    const h = await signedIn();
    h.store.setHooks({ isRecording: () => true });
    await awayFor(h, 10 * MIN);
    expect(h.location.reloads).toBe(0);
  });
});

describe("second handler: transcribing page", () => {
  it.each(["/transcribing", "/fr/transcribing"])(
    "on %s sends HEAD /api/ping (no cache), then fires murmur:reconnect",
    async (path) => {
      const h = await signedIn(path);
      await awayFor(h, 10_000);
      expect(h.fetchCalls).toEqual([{ url: "/api/ping", init: { method: "HEAD", cache: "no-store" } }]);
      expect(h.log.indexOf("fetch HEAD /api/ping")).toBeLessThan(h.log.indexOf("emit murmur:reconnect"));
      expect(h.events).toContainEqual({ name: "murmur:reconnect", detail: { online: true } });
    },
  );

  it("reports offline when the ping fails", async () => {
    const h = await signedIn("/transcribing");
    h.respond = () => Promise.reject(new TypeError("Failed to fetch"));
    await awayFor(h, 10_000);
    expect(h.events).toContainEqual({ name: "murmur:reconnect", detail: { online: false } });
  });

  it.each(["/dashboard", "/fr/coding", "/transcribing-help"])("not on %s", async (path) => {
    const h = await signedIn(path);
    await awayFor(h, 10_000);
    expect(h.fetchCalls).toEqual([]);
    expect(h.events.map((e) => e.name)).toEqual(["murmur:refreshed-data"]);
  });

  it("not when the page reloads instead", async () => {
    const h = await signedIn("/transcribing");
    await awayFor(h, 6 * MIN);
    expect(h.location.reloads).toBe(1);
    expect(h.fetchCalls).toEqual([]);
  });
});
