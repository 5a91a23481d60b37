import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestAuth, emailsTo, lastEmailTo, openLink, type TestAuth } from "#tests/setup/auth.ts";

const PASSWORD = "Correct-Horse-7";

let t: TestAuth;
beforeAll(async () => {
  t = await createTestAuth();
});
afterAll(() => t.close());
beforeEach(async () => {
  await sql`delete from auth.rate_limits`.execute(t.db.kysely);
});

describe("POST /otp (email magic link and code)", () => {
  it("creates an unconfirmed account for a new address and emails a link and a code", async () => {
    const { data, error } = await t.client().auth.signInWithOtp({
      email: "magic@example.org",
      options: { data: { full_name: "Magic User" } },
    });
    expect(error).toBeNull();
    expect(data).toEqual({ user: null, session: null });
    const mail = await lastEmailTo(t, "magic@example.org");
    expect(mail.template).toBe("magic_link");
    expect(new URL(mail.link ?? "").searchParams.get("type")).toBe("magiclink");
    expect(mail.code).toMatch(/^\d{6}$/);
    const { rows } = await sql<{ email_confirmed_at: Date | null; raw_user_meta_data: { full_name: string } }>`
      select email_confirmed_at, raw_user_meta_data from auth.users where email = 'magic@example.org'`.execute(t.db.kysely);
    expect(rows[0]).toMatchObject({ email_confirmed_at: null, raw_user_meta_data: { full_name: "Magic User" } });
  });

  it("signs in with the emailed code (type email) and confirms the address", async () => {
    await t.client().auth.signInWithOtp({ email: "code@example.org" });
    const { code } = await lastEmailTo(t, "code@example.org");
    const client = t.client();
    const { data, error } = await client.auth.verifyOtp({ email: "code@example.org", token: code ?? "", type: "email" });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect((await client.auth.getUser()).data.user?.email).toBe("code@example.org");
  });

  it("signs an existing user in through the link, with the session in the fragment", async () => {
    await t.client().auth.signInWithOtp({ email: "link@example.org" });
    await openLink(t, (await lastEmailTo(t, "link@example.org")).link ?? "");
    await t.client().auth.signInWithOtp({ email: "link@example.org" });
    const opened = await openLink(t, (await lastEmailTo(t, "link@example.org")).link ?? "");
    expect(opened.status).toBe(303);
    expect(opened.location.startsWith("http://murmur.test/#access_token=")).toBe(true);
    expect(opened.fragment.get("type")).toBe("magiclink");
    expect(opened.fragment.get("token_type")).toBe("bearer");
    const client = t.client();
    const { data, error } = await client.auth.setSession({
      access_token: opened.fragment.get("access_token") ?? "",
      refresh_token: opened.fragment.get("refresh_token") ?? "",
    });
    expect(error).toBeNull();
    expect(data.user?.email).toBe("link@example.org");
    const { rows } = await sql`select 1 from auth.audit_log_entries where action = 'magiclink_requested'`.execute(t.db.kysely);
    expect(rows.length).toBeGreaterThanOrEqual(2);
  });

  it("answers 422 otp_disabled for an unknown address when the client may not create users", async () => {
    const { error } = await t.client().auth.signInWithOtp({
      email: "stranger@example.org",
      options: { shouldCreateUser: false },
    });
    expect(error).toMatchObject({ code: "otp_disabled", status: 422, message: "Signups not allowed for otp" });
    expect(await emailsTo(t, "stranger@example.org")).toHaveLength(0);
    const { rows } = await sql`select 1 from auth.users where email = 'stranger@example.org'`.execute(t.db.kysely);
    expect(rows).toHaveLength(0);
  });

  it("still sends to a known address when the client may not create users", async () => {
    await t.client().auth.signUp({ email: "known@example.org", password: PASSWORD });
    const { error } = await t.client().auth.signInWithOtp({ email: "known@example.org", options: { shouldCreateUser: false } });
    expect(error).toBeNull();
    expect((await lastEmailTo(t, "known@example.org")).template).toBe("magic_link");
  });

  it("refuses phone OTP and malformed addresses", async () => {
    const phone = await t.client().auth.signInWithOtp({ phone: "+33600000000" });
    expect(phone.error).toMatchObject({ code: "phone_provider_disabled", status: 400, message: "Unsupported phone provider" });
    const bad = await t.client().auth.signInWithOtp({ email: "nope" });
    expect(bad.error).toMatchObject({ code: "email_address_invalid", status: 400 });
  });

  it("only the latest email works", async () => {
    await t.client().auth.signInWithOtp({ email: "latest@example.org" });
    const first = await lastEmailTo(t, "latest@example.org");
    await t.client().auth.signInWithOtp({ email: "latest@example.org" });
    const stale = await openLink(t, first.link ?? "");
    expect(stale.fragment.get("error_code")).toBe("otp_expired");
  });
});

describe("POST /otp when sign-ups are disabled", () => {
  it("refuses new addresses with signup_disabled", async () => {
    const closed = await createTestAuth({ AUTH_DISABLE_SIGNUP: "true" });
    const { error } = await closed.client().auth.signInWithOtp({ email: "new@example.org" });
    expect(error).toMatchObject({ code: "signup_disabled", status: 422 });
    await closed.close();
  });
});
