import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hashPassword } from "#app/services/auth/passwords.server.ts";
import { createTestAuth, type TestAuth } from "#tests/setup/auth.ts";

const PASSWORD = "Correct-Horse-7";
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[1] ?? "", "base64url").toString());

let t: TestAuth;
beforeAll(async () => {
  t = await createTestAuth({ AUTH_EMAIL_AUTOCONFIRM: "true" });
  for (const email of ["ana@example.org", "unconfirmed@example.org", "banned@example.org", "weak@example.org"]) {
    await t.client().auth.signUp({ email, password: PASSWORD });
  }
  await sql`update auth.users set email_confirmed_at = null where email = 'unconfirmed@example.org'`.execute(t.db.kysely);
  await sql`update auth.users set banned_until = now() + interval '1 day' where email = 'banned@example.org'`.execute(
    t.db.kysely,
  );
  // A password set before the policy existed: correct, but now too weak.
  const weak = await hashPassword("letmein");
  await sql`update auth.users set encrypted_password = ${weak} where email = 'weak@example.org'`.execute(t.db.kysely);
});
afterAll(() => t.close());
beforeEach(async () => {
  await sql`delete from auth.rate_limits`.execute(t.db.kysely);
});

describe("POST /token?grant_type=password", () => {
  it("signs in with the right password, emits SIGNED_IN and records the login", async () => {
    const client = t.client();
    const events: string[] = [];
    client.auth.onAuthStateChange((event) => void events.push(event));
    const { data, error } = await client.auth.signInWithPassword({ email: "ANA@example.org", password: PASSWORD });
    expect(error).toBeNull();
    expect(data.user?.email).toBe("ana@example.org");
    expect(data.session?.token_type).toBe("bearer");
    expect(data.session?.expires_in).toBe(3600);
    expect(data.user?.last_sign_in_at).toBeTruthy();
    expect(events).toContain("SIGNED_IN");
    expect(claimsOf(data.session?.access_token ?? "")).toMatchObject({
      sub: data.user?.id,
      role: "authenticated",
      aal: "aal1",
      amr: [{ method: "password" }],
      iss: "http://murmur.test/auth/v1",
    });
    const { rows } =
      await sql`select 1 from auth.audit_log_entries where action = 'login' and actor_id = ${data.user?.id}`.execute(t.db.kysely);
    expect(rows.length).toBeGreaterThan(0);
  });

  it("answers a wrong password and an unknown address the same way", async () => {
    const wrong = await t.client().auth.signInWithPassword({ email: "ana@example.org", password: "Wrong-Horse-7" });
    const unknown = await t.client().auth.signInWithPassword({ email: "nobody@example.org", password: PASSWORD });
    for (const { data, error } of [wrong, unknown]) {
      expect(data.session).toBeNull();
      expect(error).toMatchObject({ code: "invalid_credentials", status: 400, message: "Invalid login credentials" });
    }
  });

  it("tells an unconfirmed account apart only to someone who knows its password", async () => {
    const right = await t.client().auth.signInWithPassword({ email: "unconfirmed@example.org", password: PASSWORD });
    expect(right.error).toMatchObject({ code: "email_not_confirmed", status: 400, message: "Email not confirmed" });
    const wrong = await t.client().auth.signInWithPassword({ email: "unconfirmed@example.org", password: "Wrong-Horse-7" });
    expect(wrong.error?.code).toBe("invalid_credentials");
  });

  it("refuses a banned user with user_banned", async () => {
    const { error } = await t.client().auth.signInWithPassword({ email: "banned@example.org", password: PASSWORD });
    expect(error).toMatchObject({ code: "user_banned", status: 400 });
  });

  it("signs in with a password that no longer meets the policy, and says so", async () => {
    const { data, error } = await t.client().auth.signInWithPassword({ email: "weak@example.org", password: "letmein" });
    expect(error).toBeNull();
    expect(data.session).toBeTruthy();
    expect(data.weakPassword?.reasons).toEqual(["length", "characters"]);
  });

  it("slows down guessing against one address with over_request_rate_limit", async () => {
    const client = t.client({ ip: "198.51.100.1" });
    for (let i = 0; i < 10; i++) {
      const { error } = await client.auth.signInWithPassword({ email: "ana@example.org", password: `Wrong-${i}-Horse` });
      expect(error?.code).toBe("invalid_credentials");
    }
    // From a device that never signed in to the account, even the right password is refused now.
    const other = t.client({ ip: "198.51.100.2" });
    const { error } = await other.auth.signInWithPassword({ email: "ana@example.org", password: PASSWORD });
    expect(error).toMatchObject({ code: "over_request_rate_limit", status: 429 });
  });

  it("refuses phone sign-in and unknown grant types like GoTrue", async () => {
    const phone = await t.client().auth.signInWithPassword({ phone: "+33600000000", password: PASSWORD });
    expect(phone.error).toMatchObject({ code: "phone_provider_disabled", status: 400 });
    const res = await t.fetch("http://murmur.test/auth/v1/token?grant_type=magic", { method: "POST", body: "{}" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "invalid_credentials", msg: "unsupported_grant_type" });
    const idToken = await t.client().auth.signInWithIdToken({ provider: "google", token: "x" });
    expect(idToken.error).toMatchObject({
      code: "provider_disabled",
      status: 400,
      message: "Unsupported provider: provider google is not enabled",
    });
  });
});

// docs/auth.md "Password guessing": wrong passwords against one address are limited without
// letting anyone lock the owner out.
describe("password guessing against one address", () => {
  const OWNER_IP = "203.0.113.10";
  const tokenWindow = (offset: number) => new Date((Math.floor(Date.now() / 300_000) + offset) * 300_000);

  async function ownerWhoSignedInFrom(email: string, ip: string): Promise<void> {
    await t.client({ ip: "192.0.2.99" }).auth.signUp({ email, password: PASSWORD });
    const { error } = await t.client({ ip }).auth.signInWithPassword({ email, password: PASSWORD });
    if (error) throw error;
  }

  async function guessFromManyIps(email: string, count: number): Promise<(string | undefined)[]> {
    const codes: (string | undefined)[] = [];
    for (let i = 0; i < count; i++) {
      const { error } = await t
        .client({ ip: `198.51.100.${100 + i}` })
        .auth.signInWithPassword({ email, password: `Wrong-${i}-Horse` });
      codes.push(error?.code);
    }
    return codes;
  }

  it("lets the owner in from a device that signed in before, while guesses from anywhere else get 429", async () => {
    await ownerWhoSignedInFrom("owner@example.org", OWNER_IP);
    const codes = await guessFromManyIps("owner@example.org", 12);
    expect(codes).toEqual([...Array(10).fill("invalid_credentials"), "over_request_rate_limit", "over_request_rate_limit"]);

    const owner = await t.client({ ip: OWNER_IP }).auth.signInWithPassword({ email: "owner@example.org", password: PASSWORD });
    expect(owner.error).toBeNull();
    expect(owner.data.session?.access_token).toBeTruthy();

    // The attacker keeps getting 429, wrong password or right one, so guessing has really stopped.
    const wrong = await t
      .client({ ip: "198.51.100.200" })
      .auth.signInWithPassword({ email: "owner@example.org", password: "Wrong-X-Horse" });
    expect(wrong.error).toMatchObject({ code: "over_request_rate_limit", status: 429 });
    const right = await t
      .client({ ip: "198.51.100.201" })
      .auth.signInWithPassword({ email: "owner@example.org", password: PASSWORD });
    expect(right.error).toMatchObject({ code: "over_request_rate_limit", status: 429 });
    expect(right.data.session).toBeNull();
  });

  it("answers an unknown address under attack exactly like a real one", async () => {
    const codes = await guessFromManyIps("nobody-here@example.org", 11);
    expect(codes.at(-1)).toBe("over_request_rate_limit");
  });

  it("does not count correct passwords: signing in often never locks the address", async () => {
    await t.client({ ip: "192.0.2.98" }).auth.signUp({ email: "frequent@example.org", password: PASSWORD });
    for (let i = 0; i < 12; i++) {
      const { error } = await t
        .client({ ip: "198.51.100.50" })
        .auth.signInWithPassword({ email: "frequent@example.org", password: PASSWORD });
      expect(error).toBeNull();
    }
  });

  it("gives a recognised device its own limit on wrong passwords", async () => {
    await ownerWhoSignedInFrom("shared-office@example.org", "203.0.113.20");
    await guessFromManyIps("shared-office@example.org", 10);
    const office = t.client({ ip: "203.0.113.20" });
    for (let i = 0; i < 10; i++) {
      const { error } = await office.auth.signInWithPassword({
        email: "shared-office@example.org",
        password: `Office-${i}-Guess`,
      });
      expect(error?.code).toBe("invalid_credentials");
    }
    const next = await office.auth.signInWithPassword({ email: "shared-office@example.org", password: PASSWORD });
    expect(next.error).toMatchObject({ code: "over_request_rate_limit", status: 429 });
  });

  it("keeps the per-IP limit on every grant, recognised device or not", async () => {
    await ownerWhoSignedInFrom("busy-ip@example.org", "203.0.113.30");
    for (const offset of [0, 1]) {
      await sql`insert into auth.rate_limits (bucket, window_start, hits) values ('token:ip:203.0.113.30', ${tokenWindow(offset)}, 150)
                on conflict (bucket, window_start) do update set hits = 150`.execute(t.db.kysely);
    }
    const { error } = await t
      .client({ ip: "203.0.113.30" })
      .auth.signInWithPassword({ email: "busy-ip@example.org", password: PASSWORD });
    expect(error).toMatchObject({ code: "over_request_rate_limit", status: 429 });
  });
});
