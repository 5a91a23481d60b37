import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestAuth, lastEmailTo, openLink, type TestAuth } from "#tests/setup/auth.ts";

const PASSWORD = "Correct-Horse-7";
const APP = "https://app.example.org/auth/callback";

let t: TestAuth;
beforeAll(async () => {
  t = await createTestAuth({ AUTH_ADDITIONAL_REDIRECT_URLS: "https://app.example.org/auth/*" });
});
afterAll(() => t.close());
beforeEach(async () => {
  await sql`delete from auth.rate_limits`.execute(t.db.kysely);
});

async function signUp(email: string, redirectTo?: string) {
  const { error } = await t.client().auth.signUp({ email, password: PASSWORD, options: { emailRedirectTo: redirectTo } });
  if (error) throw error;
  return lastEmailTo(t, email);
}

const EXPIRED_FRAGMENT = {
  error: "access_denied",
  error_code: "otp_expired",
  error_description: "Email link is invalid or has expired",
};

describe("GET /verify (email links)", () => {
  it("confirms the address and redirects with the session in the fragment (implicit flow)", async () => {
    const mail = await signUp("link@example.org", APP);
    const opened = await openLink(t, mail.link ?? "");
    expect(opened.status).toBe(303);
    expect(opened.location.startsWith(`${APP}#`)).toBe(true);
    const f = Object.fromEntries(opened.fragment);
    expect(f).toMatchObject({ token_type: "bearer", type: "signup", expires_in: "3600" });
    expect(Number(f.expires_at)).toBeGreaterThan(Date.now() / 1000);
    const client = t.client();
    const { data } = await client.auth.setSession({ access_token: f.access_token ?? "", refresh_token: f.refresh_token ?? "" });
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect(data.user?.identities?.[0]?.identity_data).toMatchObject({ email_verified: true });
    expect((await client.auth.signInWithPassword({ email: "link@example.org", password: PASSWORD })).error).toBeNull();
  });

  it("works once: opening the link again redirects with otp_expired", async () => {
    const mail = await signUp("twice@example.org", APP);
    // A mail client's link checker probing with HEAD does not use the link up.
    expect((await t.fetch(mail.link ?? "", { method: "HEAD" })).status).toBe(200);
    expect((await openLink(t, mail.link ?? "")).fragment.get("access_token")).toBeTruthy();
    const again = await openLink(t, mail.link ?? "");
    expect(again.status).toBe(303);
    expect(again.location.startsWith(`${APP}#`)).toBe(true);
    expect(Object.fromEntries(again.fragment)).toMatchObject(EXPIRED_FRAGMENT);
    expect(again.fragment.get("access_token")).toBeNull();
  });

  it("refuses an expired link", async () => {
    const mail = await signUp("late@example.org");
    await sql`update auth.one_time_tokens set expires_at = now() - interval '1 minute'
              where relates_to = 'late@example.org'`.execute(t.db.kysely);
    const opened = await openLink(t, mail.link ?? "");
    expect(Object.fromEntries(opened.fragment)).toMatchObject(EXPIRED_FRAGMENT);
    const { rows } = await sql<{ email_confirmed_at: Date | null }>`
      select email_confirmed_at from auth.users where email = 'late@example.org'`.execute(t.db.kysely);
    expect(rows[0]?.email_confirmed_at).toBeNull();
    const failures = await sql`select 1 from auth.audit_log_entries where action = 'verification_failed'`.execute(t.db.kysely);
    expect(failures.rows.length).toBeGreaterThan(0);
  });

  it("sends a failed or tampered link only to an allowed target", async () => {
    const bogus = await openLink(
      t,
      "http://murmur.test/auth/v1/verify?token=bogus&type=signup&redirect_to=https%3A%2F%2Fevil.example.net",
    );
    expect(bogus.location.startsWith("http://murmur.test/#error=access_denied")).toBe(true);
    const allowed = await openLink(
      t,
      `http://murmur.test/auth/v1/verify?token=bogus&type=signup&redirect_to=${encodeURIComponent(APP)}`,
    );
    expect(allowed.location.startsWith(`${APP}#error=`)).toBe(true);

    // Rewriting redirect_to in a real link does not move where it lands.
    const mail = await signUp("tamper@example.org", APP);
    const link = new URL(mail.link ?? "");
    link.searchParams.set("redirect_to", "https://app.example.org/auth/other");
    const opened = await openLink(t, link.toString());
    expect(opened.location.startsWith(`${APP}#access_token=`)).toBe(true);
  });

  it("does not accept a link for another purpose", async () => {
    const mail = await signUp("purpose@example.org");
    const link = new URL(mail.link ?? "");
    link.searchParams.set("type", "recovery");
    const opened = await openLink(t, link.toString());
    expect(opened.fragment.get("error_code")).toBe("otp_expired");
    // The genuine link is still good.
    expect((await openLink(t, mail.link ?? "")).fragment.get("access_token")).toBeTruthy();
  });

  it("answers a request without type or token with validation_failed", async () => {
    const res = await t.fetch("http://murmur.test/auth/v1/verify?token=abc");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "validation_failed", msg: "Verify requires a verification type" });
  });

  it("turns a banned user's link into a user_banned error redirect", async () => {
    const mail = await signUp("banned@example.org");
    await sql`update auth.users set banned_until = now() + interval '1 day' where email = 'banned@example.org'`.execute(
      t.db.kysely,
    );
    const opened = await openLink(t, mail.link ?? "");
    expect(Object.fromEntries(opened.fragment)).toMatchObject({ error: "access_denied", error_code: "user_banned" });
  });
});

describe("POST /verify (typed codes and token hashes)", () => {
  it("signs in with the 6-digit code sent with the sign-up email", async () => {
    const mail = await signUp("code@example.org");
    const client = t.client();
    const { data, error } = await client.auth.verifyOtp({ email: "code@example.org", token: mail.code ?? "", type: "signup" });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();
    expect(data.user?.email_confirmed_at).toBeTruthy();
  });

  it("refuses a wrong, reused or expired code with 403 otp_expired", async () => {
    const mail = await signUp("codes@example.org");
    const wrongCode = mail.code === "000000" ? "111111" : "000000";
    const wrong = await t.client().auth.verifyOtp({ email: "codes@example.org", token: wrongCode, type: "signup" });
    expect(wrong.error).toMatchObject({ code: "otp_expired", status: 403, message: "Token has expired or is invalid" });
    const ok = await t.client().auth.verifyOtp({ email: "codes@example.org", token: mail.code ?? "", type: "email" });
    expect(ok.error).toBeNull();
    const reused = await t.client().auth.verifyOtp({ email: "codes@example.org", token: mail.code ?? "", type: "email" });
    expect(reused.error).toMatchObject({ code: "otp_expired", status: 403 });

    const late = await signUp("late-code@example.org");
    await sql`update auth.one_time_tokens set expires_at = now() - interval '1 minute'
              where relates_to = 'late-code@example.org'`.execute(t.db.kysely);
    const expired = await t.client().auth.verifyOtp({ email: "late-code@example.org", token: late.code ?? "", type: "signup" });
    expect(expired.error).toMatchObject({ code: "otp_expired", status: 403 });
  });

  it("a code and its link are one token: using either spends both", async () => {
    const mail = await signUp("shared@example.org");
    const { error } = await t.client().auth.verifyOtp({ email: "shared@example.org", token: mail.code ?? "", type: "signup" });
    expect(error).toBeNull();
    expect((await openLink(t, mail.link ?? "")).fragment.get("error_code")).toBe("otp_expired");
  });

  it("signs in with the link's token as token_hash, once", async () => {
    const mail = await signUp("hash@example.org");
    const tokenHash = new URL(mail.link ?? "").searchParams.get("token") ?? "";
    const first = await t.client().auth.verifyOtp({ token_hash: tokenHash, type: "email" });
    expect(first.error).toBeNull();
    expect(first.data.user?.email).toBe("hash@example.org");
    const second = await t.client().auth.verifyOtp({ token_hash: tokenHash, type: "email" });
    expect(second.error).toMatchObject({ code: "otp_expired", status: 403, message: "Email link is invalid or has expired" });
  });

  it("limits code guesses against one address", async () => {
    await signUp("guess@example.org");
    const results = [];
    for (let i = 0; i < 11; i++) {
      const client = t.client({ ip: `203.0.113.${i + 1}` });
      results.push(await client.auth.verifyOtp({ email: "guess@example.org", token: String(100000 + i), type: "signup" }));
    }
    expect(results.at(-1)?.error).toMatchObject({ code: "over_request_rate_limit", status: 429 });
  });

  it("validates the body like GoTrue", async () => {
    const both = await t.fetch("http://murmur.test/auth/v1/verify", {
      method: "POST",
      body: JSON.stringify({ type: "email", token: "123456", token_hash: "abc", email: "x@example.org" }),
    });
    expect(await both.json()).toMatchObject({ code: "validation_failed", msg: "Verify requires either a token or a token hash" });
    const unknown = await t.client().auth.verifyOtp({ email: "x@example.org", token: "123456", type: "sms" as "email" });
    expect(unknown.error?.code).toBe("phone_provider_disabled");
  });
});
