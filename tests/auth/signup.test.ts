import { createHash } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { codeHash } from "#app/services/auth/code-hash.server.ts";
import { createTestAuth, emailsTo, lastEmailTo, type TestAuth } from "#tests/setup/auth.ts";
import esEmails from "../../locales/es/emails.json" with { type: "json" };

const PASSWORD = "Correct-Horse-7";
const esSubject = esEmails.confirmation.subject;

describe("POST /signup with email confirmation", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await createTestAuth({ AUTH_ADDITIONAL_REDIRECT_URLS: "https://app.example.org/auth/*" });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await sql`delete from auth.rate_limits`.execute(t.db.kysely);
  });

  it("creates an unconfirmed user, answers it without a session, and emails a link and a code", async () => {
    const { data, error } = await t.client().auth.signUp({
      email: "New.Person@Example.org",
      password: PASSWORD,
      options: { data: { full_name: "New Person" } },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user).toMatchObject({
      email: "new.person@example.org",
      user_metadata: { full_name: "New Person" },
      app_metadata: { provider: "email", providers: ["email"] },
    });
    expect(data.user?.email_confirmed_at).toBeUndefined();
    expect(data.user?.confirmation_sent_at).toBeTruthy();
    expect(data.user?.identities).toHaveLength(1);

    const mail = await lastEmailTo(t, "new.person@example.org");
    expect(mail.template).toBe("confirmation");
    expect(mail.subject).toBe("Confirm your email for Murmur AI Scribe");
    expect(mail.code).toMatch(/^\d{6}$/);
    const link = new URL(mail.link ?? "");
    expect(link.origin + link.pathname).toBe("http://murmur.test/auth/v1/verify");
    expect(link.searchParams.get("type")).toBe("signup");
    expect(link.searchParams.get("redirect_to")).toBe("http://murmur.test");
  });

  it("stores only hashes of the link token and the code", async () => {
    await t.client().auth.signUp({ email: "hashed@example.org", password: PASSWORD });
    const mail = await lastEmailTo(t, "hashed@example.org");
    const token = new URL(mail.link ?? "").searchParams.get("token") ?? "";
    const { rows } = await sql<{ token_hash: string; otp_hash: string }>`
      select t.token_hash, t.otp_hash from auth.one_time_tokens t join auth.users u on u.id = t.user_id
      where u.email = 'hashed@example.org'`.execute(t.db.kysely);
    expect(rows).toHaveLength(1);
    const sha = (s: string) => createHash("sha256").update(s).digest("hex");
    expect(rows[0]?.token_hash).toBe(sha(token));
    // The 6-digit code is an HMAC under the secret key kept outside the database (issue 17).
    expect(rows[0]?.otp_hash).toBe(codeHash(t.auth.secrets.current, mail.code ?? ""));
    expect(rows[0]?.otp_hash).not.toBe(sha(mail.code ?? ""));
    const dump = JSON.stringify(
      (await sql`select * from auth.one_time_tokens`.execute(t.db.kysely)).rows.concat(
        (await sql`select * from auth.users`.execute(t.db.kysely)).rows,
      ),
    );
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(PASSWORD);
  });

  it("keeps an allowed redirect_to in the link and replaces any other with the site URL", async () => {
    await t.client().auth.signUp({
      email: "allowed@example.org",
      password: PASSWORD,
      options: { emailRedirectTo: "https://app.example.org/auth/callback" },
    });
    const allowed = new URL((await lastEmailTo(t, "allowed@example.org")).link ?? "");
    expect(allowed.searchParams.get("redirect_to")).toBe("https://app.example.org/auth/callback");

    await t.client().auth.signUp({
      email: "evil@example.org",
      password: PASSWORD,
      options: { emailRedirectTo: "https://evil.example.net/steal" },
    });
    const replaced = new URL((await lastEmailTo(t, "evil@example.org")).link ?? "");
    expect(replaced.searchParams.get("redirect_to")).toBe("http://murmur.test");
  });

  it("rejects a weak password with GoTrue's weak_password reasons", async () => {
    const { data, error } = await t.client().auth.signUp({ email: "weak@example.org", password: "short" });
    expect(data.user).toBeNull();
    expect(error).toMatchObject({ code: "weak_password", status: 422 });
    expect((error as unknown as { reasons: string[] }).reasons).toEqual(["length", "characters"]);
    expect(await emailsTo(t, "weak@example.org")).toHaveLength(0);
  });

  it("rejects a malformed address with email_address_invalid", async () => {
    const { error } = await t.client().auth.signUp({ email: "not-an-email", password: PASSWORD });
    expect(error).toMatchObject({ code: "email_address_invalid", status: 400 });
  });

  it("answers a confirmed address with a look-alike user and sends it nothing", async () => {
    await t.client().auth.signUp({ email: "taken@example.org", password: PASSWORD });
    await sql`update auth.users set email_confirmed_at = now() where email = 'taken@example.org'`.execute(t.db.kysely);
    const before = await emailsTo(t, "taken@example.org");
    const real = await sql<{ id: string }>`select id from auth.users where email = 'taken@example.org'`.execute(t.db.kysely);

    const { data, error } = await t.client().auth.signUp({ email: "taken@example.org", password: "Other-Password-9" });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.email).toBe("taken@example.org");
    expect(data.user?.identities).toEqual([]);
    expect(data.user?.id).not.toBe(real.rows[0]?.id);
    expect(await emailsTo(t, "taken@example.org")).toHaveLength(before.length);
  });

  it("re-sends the confirmation to an unconfirmed address without changing its password", async () => {
    await t.client().auth.signUp({ email: "twice@example.org", password: PASSWORD });
    const first = await lastEmailTo(t, "twice@example.org");
    const hash = await sql<{ encrypted_password: string }>`
      select encrypted_password from auth.users where email = 'twice@example.org'`.execute(t.db.kysely);

    const { data } = await t.client().auth.signUp({ email: "twice@example.org", password: "Another-Pass-8" });
    expect(data.user?.identities).toEqual([]);
    const mails = await emailsTo(t, "twice@example.org");
    expect(mails).toHaveLength(2);
    expect(mails[1]?.link).not.toBe(first.link);
    const after = await sql<{ encrypted_password: string }>`
      select encrypted_password from auth.users where email = 'twice@example.org'`.execute(t.db.kysely);
    expect(after.rows[0]?.encrypted_password).toBe(hash.rows[0]?.encrypted_password);
  });

  it("writes the email in the user's language", async () => {
    await t.client().auth.signUp({ email: "francais@example.org", password: PASSWORD, options: { data: { locale: "fr" } } });
    expect((await lastEmailTo(t, "francais@example.org")).subject).toBe("Confirmez votre e-mail pour Murmur AI Scribe");
    // Without a saved preference, the browser's language decides.
    await t.fetch("http://murmur.test/auth/v1/signup", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept-Language": "es-ES,es;q=0.9" },
      body: JSON.stringify({ email: "espanol@example.org", password: PASSWORD }),
    });
    expect((await lastEmailTo(t, "espanol@example.org")).subject).toBe(esSubject);
  });

  it("limits confirmation emails to one address with over_email_send_rate_limit", async () => {
    const client = t.client();
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await client.auth.signUp({ email: "flood@example.org", password: PASSWORD }));
    expect(results.slice(0, 3).every((r) => r.error === null)).toBe(true);
    expect(results[3]?.error).toMatchObject({ code: "over_email_send_rate_limit", status: 429 });
    expect(await emailsTo(t, "flood@example.org")).toHaveLength(3);
    const { rows } = await sql`select 1 from auth.audit_log_entries where action = 'rate_limited'`.execute(t.db.kysely);
    expect(rows.length).toBeGreaterThan(0);
  });
});

describe("POST /signup with autoconfirm", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await createTestAuth({ AUTH_EMAIL_AUTOCONFIRM: "true" });
  });
  afterAll(() => t.close());

  it("signs the new user in at once and sends no email", async () => {
    const client = t.client();
    const { data, error } = await client.auth.signUp({ email: "auto@example.org", password: PASSWORD });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();
    expect(data.session?.refresh_token).toBeTruthy();
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect(data.user?.identities?.[0]?.identity_data).toMatchObject({ email: "auto@example.org", email_verified: true });
    expect((await client.auth.getUser()).data.user?.email).toBe("auto@example.org");
    expect(await emailsTo(t, "auto@example.org")).toHaveLength(0);
  });

  it("answers an existing address with 422 user_already_exists", async () => {
    await t.client().auth.signUp({ email: "dup@example.org", password: PASSWORD });
    const { data, error } = await t.client().auth.signUp({ email: "dup@example.org", password: PASSWORD });
    expect(data.user).toBeNull();
    expect(error).toMatchObject({ code: "user_already_exists", status: 422, message: "User already registered" });
  });
});

describe("POST /signup when sign-ups are disabled", () => {
  it("answers 422 signup_disabled", async () => {
    const t = await createTestAuth({ AUTH_DISABLE_SIGNUP: "true" });
    const { error } = await t.client().auth.signUp({ email: "closed@example.org", password: PASSWORD });
    expect(error).toMatchObject({ code: "signup_disabled", status: 422 });
    await t.close();
  });
});

describe("POST /signup with operator-set per-IP limits", () => {
  it("AUTH_RATE_LIMIT_OTP and AUTH_RATE_LIMIT_EMAIL_SENT replace GoTrue's defaults of 30", async () => {
    const t = await createTestAuth({ AUTH_RATE_LIMIT_OTP: "2", AUTH_RATE_LIMIT_EMAIL_SENT: "50" });
    const client = t.client();
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await client.auth.signUp({ email: `ip-${i}@example.org`, password: PASSWORD }));
    expect(results.slice(0, 2).every((r) => r.error === null)).toBe(true);
    expect(results[2]?.error).toMatchObject({ status: 429 });
    await t.close();

    // The email limit alone: 3 sign-ups pass the account limit but only 2 emails may leave this IP.
    const mail = await createTestAuth({ AUTH_RATE_LIMIT_OTP: "50", AUTH_RATE_LIMIT_EMAIL_SENT: "2" });
    const sent = [];
    for (let i = 0; i < 3; i++) sent.push(await mail.client().auth.signUp({ email: `m-${i}@example.org`, password: PASSWORD }));
    expect(sent.slice(0, 2).every((r) => r.error === null)).toBe(true);
    expect(sent[2]?.error).toMatchObject({ code: "over_email_send_rate_limit", status: 429 });
    await mail.close();
  });
});
