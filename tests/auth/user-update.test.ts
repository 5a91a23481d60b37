import type { SupabaseClient } from "@supabase/supabase-js";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { signAccessToken } from "#app/services/auth/jwt.server.ts";
import { createTestAuth, emailsTo, lastEmailTo, type TestAuth } from "#tests/setup/auth.ts";

const PASSWORD = "Correct-Horse-7";
const NEW_PASSWORD = "Brand-New-Pass-8";

let t: TestAuth;
beforeAll(async () => {
  t = await createTestAuth({ AUTH_EMAIL_AUTOCONFIRM: "true" });
});
afterAll(() => t.close());
beforeEach(async () => {
  await sql`delete from auth.rate_limits`.execute(t.db.kysely);
});

async function signedIn(email: string, data: Record<string, unknown> = {}): Promise<SupabaseClient> {
  const client = t.client();
  const { error } = await client.auth.signUp({ email, password: PASSWORD, options: { data } });
  if (error) throw error;
  return client;
}

/** Makes every session of `email` look like it started `minutes` ago. */
async function age(email: string, minutes: number) {
  await sql`update auth.sessions set created_at = now() - make_interval(mins => ${minutes})
            where user_id = (select id from auth.users where email = ${email})`.execute(t.db.kysely);
}

describe("GET /user and PUT /user", () => {
  it("returns the signed-in user", async () => {
    const client = await signedIn("me@example.org", { full_name: "Me" });
    const { data, error } = await client.auth.getUser();
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ email: "me@example.org", user_metadata: { full_name: "Me" }, role: "authenticated" });
  });

  it("merges data into user_metadata (null removes a key) and emits USER_UPDATED", async () => {
    const client = await signedIn("meta@example.org", { full_name: "Meta", locale: "en", title: "Dr" });
    const events: string[] = [];
    client.auth.onAuthStateChange((event) => void events.push(event));
    const { data, error } = await client.auth.updateUser({ data: { locale: "fr", title: null } });
    expect(error).toBeNull();
    expect(data.user?.user_metadata).toEqual({ full_name: "Meta", locale: "fr" });
    expect(events).toContain("USER_UPDATED");
  });

  it("changes the password in a fresh session and signs the user's other sessions out", async () => {
    const client = await signedIn("fresh@example.org");
    const other = t.client();
    const otherSignIn = await other.auth.signInWithPassword({ email: "fresh@example.org", password: PASSWORD });
    const { error } = await client.auth.updateUser({ password: NEW_PASSWORD });
    expect(error).toBeNull();
    expect((await client.auth.getUser()).error).toBeNull();
    expect((await t.client().auth.getUser(otherSignIn.data.session?.access_token)).error?.name).toBe("AuthSessionMissingError");
    expect((await t.client().auth.signInWithPassword({ email: "fresh@example.org", password: NEW_PASSWORD })).error).toBeNull();
    const { rows } = await sql`select 1 from auth.audit_log_entries where action = 'user_updated_password'`.execute(t.db.kysely);
    expect(rows).toHaveLength(1);
  });

  it("asks an older session for the emailed nonce; a wrong or reused nonce is refused", async () => {
    const client = await signedIn("old@example.org");
    await age("old@example.org", 10);
    const missing = await client.auth.updateUser({ password: NEW_PASSWORD });
    expect(missing.error).toMatchObject({ code: "reauthentication_needed", status: 400 });

    const sent = await client.auth.reauthenticate();
    expect(sent.error).toBeNull();
    const mail = await lastEmailTo(t, "old@example.org");
    expect(mail.template).toBe("reauthentication");
    expect(mail.link).toBeNull();
    const nonce = mail.code ?? "";
    const wrong = await client.auth.updateUser({ password: NEW_PASSWORD, nonce: nonce === "000000" ? "111111" : "000000" });
    expect(wrong.error).toMatchObject({ code: "reauthentication_not_valid", status: 400 });

    const ok = await client.auth.updateUser({ password: NEW_PASSWORD, nonce });
    expect(ok.error).toBeNull();
    const reused = await client.auth.updateUser({ password: "Third-Password-9", nonce });
    expect(reused.error).toMatchObject({ code: "reauthentication_not_valid" });
  });

  it("lets an account without a password set its first one without a nonce", async () => {
    await t.client().auth.signInWithOtp({ email: "nopass@example.org" });
    const client = t.client();
    const { code } = await lastEmailTo(t, "nopass@example.org");
    await client.auth.verifyOtp({ email: "nopass@example.org", token: code ?? "", type: "email" });
    await age("nopass@example.org", 60);
    expect((await client.auth.updateUser({ password: NEW_PASSWORD })).error).toBeNull();
  });

  it("refuses the same password, a weak one, app_metadata and phone changes", async () => {
    const client = await signedIn("rules@example.org");
    expect((await client.auth.updateUser({ password: PASSWORD })).error).toMatchObject({ code: "same_password", status: 422 });
    const weak = await client.auth.updateUser({ password: "abc" });
    expect(weak.error).toMatchObject({ code: "weak_password", status: 422 });
    const session = (await client.auth.getSession()).data.session;
    const res = await t.fetch("http://murmur.test/auth/v1/user", {
      method: "PUT",
      headers: { Authorization: `Bearer ${session?.access_token}` },
      body: JSON.stringify({ app_metadata: { role: "admin" } }),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: "not_admin" });
    expect((await client.auth.updateUser({ phone: "+33600000000" })).error?.code).toBe("phone_provider_disabled");
  });

  it("requires an AAL2 session to change the password once MFA is on", async () => {
    const client = await signedIn("mfa@example.org");
    await sql`insert into auth.mfa_factors (user_id, factor_type, status, friendly_name)
              select id, 'totp', 'verified', 'phone app' from auth.users where email = 'mfa@example.org'`.execute(t.db.kysely);
    const { error } = await client.auth.updateUser({ password: NEW_PASSWORD });
    expect(error).toMatchObject({ code: "insufficient_aal", status: 401 });
  });

  it("GET /reauthenticate needs a session and is rate limited per address", async () => {
    const none = await t.fetch("http://murmur.test/auth/v1/reauthenticate");
    expect(none.status).toBe(401);
    const client = await signedIn("reauth-limit@example.org");
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await client.auth.reauthenticate());
    expect(results.at(-1)?.error).toMatchObject({ code: "over_email_send_rate_limit", status: 429 });
    expect(await emailsTo(t, "reauth-limit@example.org")).toHaveLength(3);
  });

  it("refuses a banned user's access token", async () => {
    const client = await signedIn("banned-user@example.org");
    await sql`update auth.users set banned_until = now() + interval '1 day' where email = 'banned-user@example.org'`.execute(
      t.db.kysely,
    );
    const { error } = await client.auth.getUser();
    expect(error).toMatchObject({ code: "user_banned", status: 403 });
  });

  it("reports an expired access token in GoTrue's words, apart from a forged one", async () => {
    const client = await signedIn("expired-token@example.org");
    const token = (await client.auth.getSession()).data.session?.access_token ?? "";
    const claims = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString());
    // The same claims, properly signed, an hour past their expiry.
    const expired = await signAccessToken(t.auth.keys, { ...claims, exp: Math.floor(Date.now() / 1000) - 3600 });

    const late = await t.client().auth.getUser(expired);
    expect(late.error).toMatchObject({
      name: "AuthApiError",
      status: 403,
      code: "bad_jwt",
      message: "invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired",
    });

    const [header, payload, signature = ""] = token.split(".");
    const forged = `${header}.${payload}.${signature.slice(0, -4)}${signature.endsWith("AAAA") ? "BBBB" : "AAAA"}`;
    const bad = await t.client().auth.getUser(forged);
    expect(bad.error).toMatchObject({ status: 403, code: "bad_jwt" });
    expect(bad.error?.message).toMatch(/^invalid JWT: unable to parse or verify signature, /);
    expect(bad.error?.message).not.toMatch(/expired/);
  });
});
