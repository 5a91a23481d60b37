// Issue 17: the auth API's rate limits are set by environment, under GoTrue's names where it has
// them (AUTH_RATE_LIMIT_TOKEN_REFRESH, AUTH_RATE_LIMIT_VERIFY) plus the password-failure limit.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConfirmedUser, createTestAuth, type TestAuth } from "#tests/setup/auth.ts";

let t: TestAuth;
beforeAll(async () => {
  t = await createTestAuth({
    AUTH_RATE_LIMIT_TOKEN_REFRESH: "3",
    AUTH_RATE_LIMIT_VERIFY: "2",
    AUTH_RATE_LIMIT_PASSWORD_FAILURES: "2",
  });
});
afterAll(() => t.close());

async function post(path: string, body: unknown, ip: string): Promise<number> {
  const res = await t.fetch(`http://murmur.test/auth/v1${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", apikey: t.auth.keys.anonKey, "x-forwarded-for": ip },
    body: JSON.stringify(body),
  });
  return res.status;
}

describe("rate limits from the environment", () => {
  it("AUTH_RATE_LIMIT_VERIFY caps /verify per IP", async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push(await post("/verify", { type: "email", email: "x@example.org", token: "123456" }, "1"));
    expect(statuses.slice(0, 2).every((s) => s !== 429)).toBe(true);
    expect(statuses[2]).toBe(429);
  });

  it("AUTH_RATE_LIMIT_PASSWORD_FAILURES holds back an address after that many wrong passwords", async () => {
    await createConfirmedUser(t, "limited@example.org", "Correct-Horse-9");
    const client = t.client({ ip: "10.0.0.9" });
    const tries = [];
    for (let i = 0; i < 3; i++) {
      const { error } = await client.auth.signInWithPassword({ email: "limited@example.org", password: "wrong-password" });
      tries.push(error?.status);
    }
    expect(tries).toEqual([400, 400, 429]);
  });

  it("AUTH_RATE_LIMIT_TOKEN_REFRESH caps /token per IP", async () => {
    const client = t.client({ ip: "10.0.0.7" });
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const { error } = await client.auth.refreshSession({ refresh_token: `not-a-token-${i}` });
      statuses.push(error?.status);
    }
    expect(statuses.slice(0, 3).every((s) => s !== 429)).toBe(true);
    expect(statuses[3]).toBe(429);
  });
});
