// SPEC §4 Sign-out (local cleanup) and §4 Migration cleanup / §3 Migration status record.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { clearLocalData } from "#app/services/auth-client/cleanup.ts";
import { createHarness, signIn, T0, useAuthClock } from "#tests/fixtures/auth-client-fakes.ts";

beforeEach(() => useAuthClock());
afterEach(() => vi.useRealTimers());

const CACHED_KEYS = [
  "user",
  "recentClaims",
  "claimsToday",
  "billingData",
  "totalClaims",
  "recentTranscriptions",
  "chartData",
  "customerData",
  "billingStats",
  "currentPlan",
];
const AUTH_ITEMS = [
  "sb-proj-auth-token",
  "sb-murmur-auth-token-code-verifier",
  "lswt-1",
  "my-supabase-cache",
  "supabase.auth.token",
];
// Near misses: none of these begins with "sb-"/"lswt-", contains "supabase", or is a listed key.
const KEPT = ["theme", "murmur-migration", "i18n_redirected", "sbx-token", "lswt", "users", "Supabase-upper", "assistant-width"];

function record(keys: string[]): Record<string, string> {
  return Object.fromEntries(keys.map((k) => [k, "v"]));
}

describe("sign-out local cleanup", () => {
  it("removes exactly the listed keys, the sb-/lswt-/…supabase… items and the organisation id, in both storages", () => {
    const all = [...CACHED_KEYS, ...AUTH_ITEMS, "murmur-org", ...KEPT];
    const h = createHarness({ local: record(all), session: record(all), start: false });
    clearLocalData(h.deps);
    expect(h.local.keys()).toEqual([...KEPT].sort());
    expect(h.session.keys()).toEqual([...KEPT].sort());
    expect(h.local.removed.sort()).toEqual([...CACHED_KEYS, ...AUTH_ITEMS, "murmur-org"].sort());
  });

  it("removes cookies by the same rules plus the organisation cookie, and nothing else", () => {
    const h = createHarness({
      start: false,
      cookies: {
        "sb-murmur-auth-token": "a",
        "sb-murmur-auth-token.0": "b",
        "sb-murmur-auth-token.1": "c",
        "sb-murmur-auth-token-code-verifier": "d",
        "lswt-x": "e",
        "x-supabase-y": "f",
        "murmur-org": "org-1",
        i18n_redirected: "fr",
        theme: "dark",
        user: "cookie named user stays: the key list is for storage",
      },
    });
    clearLocalData(h.deps);
    expect(h.removedCookies).toEqual([
      "sb-murmur-auth-token",
      "sb-murmur-auth-token.0",
      "sb-murmur-auth-token.1",
      "sb-murmur-auth-token-code-verifier",
      "lswt-x",
      "x-supabase-y",
      "murmur-org",
    ]);
    expect([...h.cookies.keys()]).toEqual(["i18n_redirected", "theme", "user"]);
  });
});

describe("migration cleanup", () => {
  const OLD = ["finalized_recording_1", "failed_save_2", "offline_transcription_3", "pending_save_4", "sb-abcd-auth-token"];
  const NOT_OLD = ["recording_settings", "sb-abcd-other", "murmur-org", "finalized_recording", "my_pending_save_1", "theme"];

  it("removes the old recording/offline keys, legacy sb-*-auth-token keys and the organisation cookie; records success", () => {
    const h = createHarness({
      start: false,
      local: record([...OLD, ...NOT_OLD]),
      session: record(["pending_save_9", "theme"]),
      cookies: { "murmur-org": "org-1", "sb-murmur-auth-token": "session", i18n_redirected: "es" },
    });
    const result = h.store.runMigrationCleanup();
    const expected = { status: "success", version: "2.0.0-jwt-org-context", timestamp: T0, cleanedItemsCount: 7 };
    expect(result).toEqual(expected);
    expect(h.local.keys()).toEqual([...NOT_OLD, "murmur-migration"].sort());
    expect(h.session.keys()).toEqual(["theme"]);
    // The live session cookie must survive: this runs right after sign-in.
    expect([...h.cookies.keys()]).toEqual(["sb-murmur-auth-token", "i18n_redirected"]);
    expect(JSON.parse(h.local.getItem("murmur-migration") ?? "null")).toEqual(expected);
  });

  it("runs once per version", () => {
    const h = createHarness({ start: false, local: record(["failed_save_1"]) });
    expect(h.store.runMigrationCleanup()?.status).toBe("success");
    h.local.setItem("failed_save_2", "v");
    expect(h.store.runMigrationCleanup()).toBeNull();
    expect(h.local.getItem("failed_save_2")).toBe("v");
  });

  it("runs again when the record is for another version", () => {
    const h = createHarness({
      start: false,
      local: {
        "murmur-migration": JSON.stringify({ status: "success", version: "1.9.0", timestamp: 1, cleanedItemsCount: 0 }),
        failed_save_1: "v",
      },
    });
    expect(h.store.runMigrationCleanup()).toMatchObject({
      status: "success",
      version: "2.0.0-jwt-org-context",
      cleanedItemsCount: 1,
    });
  });

  it("records a failure as status failed with the error and stack, logs it, and tries again next time", () => {
    const h = createHarness({ start: false, local: record(["finalized_recording_1", "failed_save_2", "pending_save_3"]) });
    h.local.failOnRemove = "failed_save_2";
    const failed = h.store.runMigrationCleanup();
    expect(failed).toMatchObject({
      status: "failed",
      version: "2.0.0-jwt-org-context",
      timestamp: T0,
      cleanedItemsCount: 1, // finalized_recording_1 went before the failure
      error: "cannot remove failed_save_2",
    });
    expect(failed?.stack).toContain("cannot remove failed_save_2");
    expect(JSON.parse(h.local.getItem("murmur-migration") ?? "null")).toEqual(failed);
    expect(h.errors).toEqual([
      {
        message: "auth: migration cleanup failed",
        details: { error: "cannot remove failed_save_2", version: "2.0.0-jwt-org-context" },
      },
    ]);

    h.local.failOnRemove = null;
    vi.setSystemTime(T0 + 1000);
    expect(h.store.runMigrationCleanup()).toEqual({
      status: "success",
      version: "2.0.0-jwt-org-context",
      timestamp: T0 + 1000,
      cleanedItemsCount: 2,
    });
  });

  it("runs in the background of the first SIGNED_IN only", async () => {
    const h = createHarness({ local: record(["offline_transcription_1"]) });
    signIn(h);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.local.removed).toContain("offline_transcription_1");
    h.local.setItem("offline_transcription_2", "v");
    h.auth.emit("SIGNED_OUT", null);
    signIn(h);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.local.getItem("offline_transcription_2")).toBe("v");
  });
});
