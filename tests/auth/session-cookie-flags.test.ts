import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionMiddleware } from "#app/middleware/session.server.ts";
import { createLoadContext } from "#app/runtime/load-context.server.ts";
import type { Runtime } from "#app/runtime/runtime.server.ts";
import { AUTH_COOKIE_NAME, resolveAuthTarget } from "#app/services/session/auth-mode.server.ts";
import { createRequestSupabase } from "#app/services/session/supabase.server.ts";
import { userContext } from "#app/services/session/user-context.ts";
import { parseEnv } from "#app/utils/env.server.ts";
import { createLogger } from "#app/utils/logger.server.ts";
import { createConfirmedUser, createTestAuth, type TestAuth } from "#tests/setup/auth.ts";

// The session cookie (SPEC §9: sb-murmur-auth-token, path /, SameSite lax, 400 days) is Secure
// when the site is served over HTTPS. Behind a TLS-terminating proxy, server.ts sets Express's
// `trust proxy` from TRUST_PROXY and @react-router/express builds request.url from req.protocol,
// which follows X-Forwarded-Proto only then: a trusted proxy's https request reaches the app as an
// https:// URL, which is how these tests present it. SITE_URL=https://… covers a proxy not trusted.

const PASSWORD = "Cookie-Flags-1";
const EMAIL = "cookie-flags@example.org";

let t: TestAuth;
beforeAll(async () => {
  t = await createTestAuth();
  await createConfirmedUser(t, EMAIL, PASSWORD);
});
afterAll(() => t.close());

function runtimeWith(env: Record<string, string>): Runtime {
  return {
    env: parseEnv({ NODE_ENV: "test", LOG_LEVEL: "silent", ...env }),
    db: t.db,
    logger: createLogger("silent"),
    auth: t.auth,
    close: async () => {},
  };
}

/** Signs in through the app's server-side client, as the /login action does; returns the Set-Cookie values. */
async function signInCookies(pageUrl: string, env: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const request = new Request(pageUrl, { method: "POST", headers });
  const target = resolveAuthTarget(runtimeWith(env), new URL(pageUrl).origin, "192.0.2.7");
  const session = createRequestSupabase(request, target);
  const { error } = await session.supabase.auth.signInWithPassword({ email: EMAIL, password: PASSWORD });
  if (error) throw error;
  const cookies = session.setCookies.filter((c) => c.startsWith(`${AUTH_COOKIE_NAME}=`) || c.startsWith(`${AUTH_COOKIE_NAME}.`));
  expect(cookies.length).toBeGreaterThan(0);
  return cookies;
}

const attributes = (cookie: string) =>
  cookie
    .split(";")
    .slice(1)
    .map((a) => a.trim().toLowerCase());

describe("session cookie flags", () => {
  it("marks the cookie Secure when the page is served over HTTPS (X-Forwarded-Proto from a trusted proxy)", async () => {
    const cookies = await signInCookies("https://murmur.test/login", {}, { "x-forwarded-proto": "https" });
    for (const cookie of cookies) {
      expect(attributes(cookie)).toEqual(expect.arrayContaining(["secure", "path=/", "samesite=lax", "max-age=34560000"]));
      expect(attributes(cookie)).not.toContain("httponly");
    }
  });

  it("marks the cookie Secure when SITE_URL is https, even if the request reached the app as http", async () => {
    const cookies = await signInCookies("http://murmur.test/login", { SITE_URL: "https://murmur.test" });
    for (const cookie of cookies) expect(attributes(cookie)).toContain("secure");
  });

  it("leaves Secure off over plain http, whatever an untrusted X-Forwarded-Proto says", async () => {
    const cookies = await signInCookies(
      "http://murmur.test/login",
      { SITE_URL: "http://murmur.test" },
      { "x-forwarded-proto": "https" },
    );
    for (const cookie of cookies) {
      expect(attributes(cookie)).not.toContain("secure");
      expect(attributes(cookie)).toEqual(expect.arrayContaining(["path=/", "samesite=lax"]));
    }
  });

  it("keeps Secure on the cookie the session middleware rewrites when it refreshes an expired session", async () => {
    const [signedIn] = await signInCookies("https://murmur.test/login");
    const [pair] = (signedIn ?? "").split(";");
    const value = decodeURIComponent((pair ?? "").slice(AUTH_COOKIE_NAME.length + 1));
    const stored = JSON.parse(Buffer.from(value.replace(/^base64-/, ""), "base64url").toString());
    stored.expires_at = Math.floor(Date.now() / 1000) - 60;
    const expired = `base64-${Buffer.from(JSON.stringify(stored)).toString("base64url")}`;

    const context = createLoadContext(runtimeWith({}), { requestId: "cookie-test", nonce: "n", clientIp: "192.0.2.7" });
    const request = new Request("https://murmur.test/app", { headers: { cookie: `${AUTH_COOKIE_NAME}=${expired}` } });
    const response = (await sessionMiddleware({ request, context, params: {}, unstable_pattern: "" } as never, async () =>
      Response.json({ ok: true }),
    )) as Response;

    expect(context.get(userContext)?.email).toBe(EMAIL);
    const rewritten = response.headers.getSetCookie().filter((c) => c.startsWith(AUTH_COOKIE_NAME));
    expect(rewritten.length).toBeGreaterThan(0);
    for (const cookie of rewritten) expect(attributes(cookie)).toContain("secure");
  });
});
