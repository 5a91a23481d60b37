import { sql } from "kysely";
import type { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sessionMiddleware } from "#app/middleware/session.server.ts";
import * as callback from "#app/routes/auth/callback.tsx";
import * as updatePassword from "#app/routes/auth/update-password.tsx";
import { createLoadContext } from "#app/runtime/load-context.server.ts";
import type { Runtime } from "#app/runtime/runtime.server.ts";
import { AUTH_COOKIE_NAME, resolveAuthTarget } from "#app/services/session/auth-mode.server.ts";
import { LINK_CONFIRM_COOKIE } from "#app/services/session/email-link-confirm.server.ts";
import { createRequestSupabase } from "#app/services/session/supabase.server.ts";
import { userContext } from "#app/services/session/user-context.ts";
import { parseEnv } from "#app/utils/env.server.ts";
import { createLogger } from "#app/utils/logger.server.ts";
import { createConfirmedUser, createTestAuth, lastEmailTo, type TestAuth } from "#tests/setup/auth.ts";

// Issue 25, login CSRF: an attacker requests a magic link for their own account and sends
// /auth/callback?token_hash=<their token>&type=magiclink to a clinician. Following it used to sign
// the clinician's browser — already signed in — into the attacker's account, silently. Now the
// page names both accounts and waits for a POST only this browser's confirm page can make.

const SITE = "http://murmur.test";
const VICTIM = { email: "victim@clinic.test", password: "Victim-Pass-1" };
const ATTACKER = { email: "attacker@evil.test", password: "Attacker-Pass-1" };

let t: TestAuth;
beforeAll(async () => {
  t = await createTestAuth();
  await createConfirmedUser(t, VICTIM.email, VICTIM.password);
  await createConfirmedUser(t, ATTACKER.email, ATTACKER.password);
});
afterAll(() => t.close());
beforeEach(async () => {
  await sql`delete from auth.rate_limits`.execute(t.db.kysely);
});

function runtime(): Runtime {
  return {
    env: parseEnv({ NODE_ENV: "test", LOG_LEVEL: "silent" }),
    db: t.db,
    logger: createLogger("silent"),
    auth: t.auth,
    close: async () => {},
  };
}

/** The victim's session cookies, as the /login action sets them. */
async function victimCookie(): Promise<string> {
  const request = new Request(`${SITE}/login`, { method: "POST" });
  const session = createRequestSupabase(request, resolveAuthTarget(runtime(), SITE, "192.0.2.1"));
  const { error } = await session.supabase.auth.signInWithPassword(VICTIM);
  if (error) throw error;
  return session.setCookies.map((c) => c.split(";")[0]).join("; ");
}

/** The raw token of a magic link the attacker asked for, for their own account. */
async function attackerToken(): Promise<string> {
  const { error } = await t.client().auth.signInWithOtp({ email: ATTACKER.email, options: { shouldCreateUser: false } });
  if (error) throw error;
  const link = new URL((await lastEmailTo(t, ATTACKER.email)).link ?? "");
  return link.searchParams.get("token") ?? "";
}

/** Runs a route module's loader or action behind the session middleware, as React Router does. */
async function run(
  route: { loader?: unknown; action?: unknown },
  request: Request,
): Promise<{ response: Response; data: Record<string, unknown> | null; context: RouterContextProvider }> {
  const context = createLoadContext(runtime(), { requestId: "csrf", nonce: "n", clientIp: "192.0.2.1" });
  const handler = (request.method === "GET" ? route.loader : route.action) as (args: unknown) => Promise<unknown>;
  let body: Record<string, unknown> | null = null;
  const response = (await sessionMiddleware({ request, context, params: {}, unstable_pattern: "" } as never, async () => {
    try {
      const result = (await handler({ request, context, params: {} })) as { data?: unknown; init?: ResponseInit } | Response;
      if (result instanceof Response) return result;
      body = (result.data ?? result) as Record<string, unknown>;
      return new Response(JSON.stringify(body), result.init ?? {});
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  })) as Response;
  return { response, data: body, context };
}

const sessionCookies = (response: Response) =>
  response.headers.getSetCookie().filter((c) => c.startsWith(AUTH_COOKIE_NAME) && !c.includes("Max-Age=0"));

async function signedInAs(cookie: string): Promise<string | null> {
  const { context } = await run(
    callback,
    new Request(`${SITE}/auth/callback?type=magiclink&token_hash=x`, { headers: { cookie } }),
  );
  return context.get(userContext)?.email ?? null;
}

describe("magic-link and recovery callbacks never switch a session silently", () => {
  it("shows a signed-in browser a confirm page naming both accounts, and keeps its session and the link", async () => {
    const cookie = await victimCookie();
    const token = await attackerToken();
    const { response, data } = await run(
      callback,
      new Request(`${SITE}/auth/callback?token_hash=${token}&type=magiclink&next=/transcribing`, { headers: { cookie } }),
    );
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ current: VICTIM.email, target: ATTACKER.email, type: "magiclink", next: "/transcribing" });
    expect(sessionCookies(response)).toEqual([]);
    expect(await signedInAs(cookie)).toBe(VICTIM.email);
    const { rows } = await sql<{ used_at: Date | null }>`
      select used_at from auth.one_time_tokens where token_type = 'magiclink' order by created_at desc limit 1`.execute(
      t.db.kysely,
    );
    expect(rows[0]?.used_at).toBeNull();
  });

  it("refuses the confirming POST without this browser's nonce (another site's auto-submitting form)", async () => {
    const cookie = await victimCookie();
    const token = await attackerToken();
    const form = new URLSearchParams({ token_hash: token, type: "magiclink", next: "/transcribing", nonce: "guessed" });
    const { response, data } = await run(
      callback,
      new Request(`${SITE}/auth/callback`, {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: form,
      }),
    );
    expect(response.status).toBe(403);
    expect(data).toEqual({ failure: { code: "link_confirm_expired" } });
    expect(sessionCookies(response)).toEqual([]);
    expect(await signedInAs(cookie)).toBe(VICTIM.email);
  });

  it("switches only when the visitor confirms on the page, signing the old account out", async () => {
    const cookie = await victimCookie();
    const token = await attackerToken();
    const page = await run(
      callback,
      new Request(`${SITE}/auth/callback?token_hash=${token}&type=magiclink`, { headers: { cookie } }),
    );
    const nonceCookie = page.response.headers.getSetCookie().find((c) => c.startsWith(`${LINK_CONFIRM_COOKIE}=`)) ?? "";
    expect(nonceCookie).toMatch(/HttpOnly/);
    expect(nonceCookie).toMatch(/SameSite=Strict/);
    const form = new URLSearchParams({
      token_hash: token,
      type: "magiclink",
      next: "/dashboard",
      nonce: String(page.data?.nonce),
    });
    const { response } = await run(
      callback,
      new Request(`${SITE}/auth/callback`, {
        method: "POST",
        headers: { cookie: `${cookie}; ${nonceCookie.split(";")[0]}`, "content-type": "application/x-www-form-urlencoded" },
        body: form,
      }),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/dashboard");
    const switched = sessionCookies(response)
      .map((c) => c.split(";")[0])
      .join("; ");
    expect(await signedInAs(switched)).toBe(ATTACKER.email);
    // The victim's session on this device was signed out, not left behind.
    expect(await signedInAs(cookie)).toBeNull();
  });

  it("sends a recovery ?token= on /update-password through the same confirm page", async () => {
    const { response } = await run(updatePassword, new Request(`${SITE}/fr/update-password?token=abc`));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/fr/auth/callback?token_hash=abc&type=recovery&next=%2Ffr%2Fupdate-password");
  });

  it("refuses an unknown link type", async () => {
    const { response } = await run(callback, new Request(`${SITE}/auth/callback?token_hash=abc&type=weird`));
    expect(response.headers.get("location")).toBe("/login?error=otp_expired");
  });
});
