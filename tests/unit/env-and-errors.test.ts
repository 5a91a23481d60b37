import { describe, expect, it, vi } from "vitest";
import { EnvError, parseEnv } from "#app/utils/env.server.ts";
import { createErrorStore } from "#app/utils/error-store.ts";

describe("environment", () => {
  it("has embedded defaults", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({ PORT: 3000, MURMUR_DATA_DIR: "./data", ORG_BOOTSTRAP_TIMEOUT_MS: 5000 });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SENTRY_DSN).toBeUndefined();
  });

  it("rejects bad values with every problem named", () => {
    expect(() => parseEnv({ PORT: "eighty", DATABASE_URL: "not a url" })).toThrow(EnvError);
    expect(() => parseEnv({ PORT: "eighty" })).toThrow(/PORT/);
  });

  it("treats empty strings as unset", () => {
    expect(parseEnv({ DATABASE_URL: "", SENTRY_DSN: "" }).DATABASE_URL).toBeUndefined();
  });
});

describe("client error store (SPEC §3, §8)", () => {
  it("keeps the last 20 entries with defaults type=system, severity=medium", () => {
    const store = createErrorStore();
    for (let i = 0; i < 25; i++) store.add({ message: `e${i}` });
    const list = store.list();
    expect(list).toHaveLength(20);
    expect(list[0]?.message).toBe("e5");
    expect(list[19]).toMatchObject({ message: "e24", type: "system", severity: "medium", resolved: false });
  });

  it("reports only high and critical entries", () => {
    const store = createErrorStore();
    const reporter = vi.fn();
    store.setReporter(reporter);
    store.add({ message: "low", severity: "low" });
    store.add({ message: "medium" });
    store.add({ message: "high", severity: "high" });
    store.add({ message: "critical", severity: "critical" });
    expect(reporter.mock.calls.map(([entry]) => entry.message)).toEqual(["high", "critical"]);
  });

  it("marks entries resolved and notifies subscribers", () => {
    const store = createErrorStore();
    const seen: number[] = [];
    store.subscribe((entries) => seen.push(entries.length));
    const entry = store.add({ message: "x" });
    store.resolve(entry.id);
    expect(store.list()[0]?.resolved).toBe(true);
    expect(seen).toEqual([1, 1]);
  });
});
