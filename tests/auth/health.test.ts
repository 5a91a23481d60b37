import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestAuth, type TestAuth } from "#tests/setup/auth.ts";

let t: TestAuth;
beforeAll(async () => {
  t = await createTestAuth();
});
afterAll(() => t.close());

describe("auth API basics", () => {
  it("GET /health and /settings answer like GoTrue", async () => {
    const health = await (await t.fetch("http://murmur.test/auth/v1/health")).json();
    expect(health).toMatchObject({ name: "GoTrue" });
    const settings = await (await t.fetch("http://murmur.test/auth/v1/settings")).json();
    expect(settings).toMatchObject({ external: { email: true }, mailer_autoconfirm: false, disable_signup: false });
  });

  it("publishes the ES256 public key, which verifies supabase-js getClaims", async () => {
    const jwks = (await (await t.fetch("http://murmur.test/auth/v1/.well-known/jwks.json")).json()) as {
      keys: { kty: string; alg: string; kid: string; d?: string }[];
    };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: "EC", alg: "ES256", kid: t.auth.keys.kid });
    expect(jwks.keys[0]?.d).toBeUndefined();
  });

  it("unknown paths are 404 and wrong methods 405, with GoTrue error codes", async () => {
    const missing = await t.fetch("http://murmur.test/auth/v1/nothing-here");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: "not_found" });
    const wrong = await t.fetch("http://murmur.test/auth/v1/health", { method: "DELETE" });
    expect(wrong.status).toBe(405);
  });

  it("keeps the same keys across restarts", async () => {
    const { startAuthRuntime } = await import("#app/services/auth/auth-runtime.server.ts");
    const { parseEnv } = await import("#app/utils/env.server.ts");
    const { createLogger } = await import("#app/utils/logger.server.ts");
    const again = await startAuthRuntime(parseEnv({ SITE_URL: "http://murmur.test" }), t.db, createLogger("silent"));
    expect(again.keys.kid).toBe(t.auth.keys.kid);
    expect(again.keys.anonKey).toBe(t.auth.keys.anonKey);
  });
});
