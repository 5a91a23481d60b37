import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleAuthRequest } from "#app/services/auth/api/router.server.ts";
import { hashToken } from "#app/services/auth/crypto.server.ts";
import { verifyPassword } from "#app/services/auth/passwords.server.ts";
import { createSession } from "#app/services/auth/sessions.server.ts";
import { findUserById } from "#app/services/auth/users.server.ts";
import { createConfirmedUser, createTestAuth, hasAuthRoute, lastEmailTo, openLink, type TestAuth } from "#tests/setup/auth.ts";

const PASSWORD = "Correct-Horse-9";
let t: TestAuth;

beforeAll(async () => {
  t = await createTestAuth();
});
afterAll(() => t.close());

async function raw(method: string, path: string, options: { token?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = { "content-type": "application/json", apikey: t.auth.keys.anonKey };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const res = await handleAuthRequest(
    new Request(`http://murmur.test/auth/v1${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    }),
    t.auth,
    { ip: "127.0.0.1", userAgent: "vitest" },
  );
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

async function auditActions(userId: string): Promise<string[]> {
  const { rows } = await sql<{ action: string }>`
    select action from auth.audit_log_entries where payload ->> 'user_id' = ${userId} order by created_at`.execute(t.db.kysely);
  return rows.map((r) => r.action);
}

describe("admin API access", () => {
  it("answers 401 without a token and 403 not_admin for the anon key or a user's token", async () => {
    expect(await raw("GET", "/admin/users")).toMatchObject({ status: 401, body: { code: "no_authorization" } });
    const anon = await t.client().auth.admin.listUsers();
    expect(anon.error).toMatchObject({ status: 403, code: "not_admin", message: "User not allowed" });
    const user = await createConfirmedUser(t, "plain@example.test", PASSWORD);
    const session = await createSession(t.auth, user, { method: "password" });
    for (const path of ["/admin/users", `/admin/users/${user.id}`]) {
      expect(await raw("GET", path, { token: session.access_token })).toMatchObject({
        status: 403,
        body: { code: "not_admin" },
      });
    }
    expect(await raw("POST", "/invite", { token: t.auth.keys.anonKey, body: { email: "x@example.test" } })).toMatchObject({
      status: 403,
      body: { code: "not_admin" },
    });
  });
});

describe("admin users", () => {
  it("createUser confirms, stores metadata and an email identity, and rejects duplicates and weak passwords", async () => {
    const admin = t.admin().auth.admin;
    const created = await admin.createUser({
      email: "Dr.Who@Example.test",
      password: PASSWORD,
      email_confirm: true,
      user_metadata: { full_name: "Dr Who" },
      app_metadata: { plan: "pro" },
    });
    expect(created.error).toBeNull();
    const user = created.data.user;
    expect(user).toMatchObject({
      email: "dr.who@example.test",
      user_metadata: { full_name: "Dr Who" },
      app_metadata: { provider: "email", providers: ["email"], plan: "pro" },
      role: "authenticated",
      aud: "authenticated",
    });
    expect(user?.email_confirmed_at).toBeTruthy();
    expect(user?.identities?.[0]).toMatchObject({
      provider: "email",
      id: user?.id,
      identity_data: { email: "dr.who@example.test", email_verified: true },
    });
    const row = await findUserById(t.db.kysely, user?.id ?? "");
    expect(await verifyPassword(PASSWORD, row?.encrypted_password ?? null)).toBe(true);
    expect(await auditActions(user?.id ?? "")).toEqual(["user_signedup"]);

    const dup = await admin.createUser({ email: "DR.WHO@example.test", password: PASSWORD });
    expect(dup.error).toMatchObject({ status: 422, code: "email_exists" });
    const weak = await admin.createUser({ email: "weak@example.test", password: "password" });
    expect(weak.error).toMatchObject({ status: 422, code: "weak_password" });
    const nothing = await admin.createUser({ user_metadata: {} });
    expect(nothing.error).toMatchObject({ status: 400, code: "validation_failed" });
    const invalid = await admin.createUser({ email: "not an email" });
    expect(invalid.error).toMatchObject({ status: 400, code: "email_address_invalid" });

    const phone = await admin.createUser({ phone: "+1 555 010 0100", phone_confirm: true });
    expect(phone.data.user).toMatchObject({ phone: "15550100100", app_metadata: { provider: "phone" } });
    const dupPhone = await admin.createUser({ phone: "+15550100100" });
    expect(dupPhone.error).toMatchObject({ status: 422, code: "phone_exists" });

    if (hasAuthRoute("POST", "/token")) {
      const signIn = await t.client().auth.signInWithPassword({ email: "dr.who@example.test", password: PASSWORD });
      expect(signIn.error).toBeNull();
    }
  });

  it("getUserById finds a user; unknown ids are 404 user_not_found, malformed ones 400", async () => {
    const admin = t.admin().auth.admin;
    const user = await createConfirmedUser(t, "get@example.test", PASSWORD);
    const found = await admin.getUserById(user.id);
    expect(found.data.user).toMatchObject({ id: user.id, email: "get@example.test" });
    const missing = await admin.getUserById(crypto.randomUUID());
    expect(missing.error).toMatchObject({ status: 404, code: "user_not_found" });
    const malformed = await raw("GET", "/admin/users/123", { token: t.auth.keys.serviceRoleKey });
    expect(malformed).toMatchObject({ status: 400, body: { code: "validation_failed" } });
  });

  it("updateUserById changes email, password, metadata and bans", async () => {
    const admin = t.admin().auth.admin;
    const user = await createConfirmedUser(t, "update@example.test", PASSWORD);
    await admin.updateUserById(user.id, { user_metadata: { a: 1, b: 2 }, app_metadata: { tier: "x" } });
    const res = await admin.updateUserById(user.id, {
      email: "Updated@example.test",
      password: "An0ther-Secret!",
      user_metadata: { b: null, c: 3 },
      ban_duration: "24h",
    });
    expect(res.error).toBeNull();
    expect(res.data.user).toMatchObject({
      email: "updated@example.test",
      user_metadata: { a: 1, c: 3 },
      app_metadata: { provider: "email", tier: "x" },
    });
    expect(res.data.user?.user_metadata).not.toHaveProperty("b");
    expect(res.data.user?.identities?.[0]?.identity_data?.email).toBe("updated@example.test");
    const row = await findUserById(t.db.kysely, user.id);
    expect(await verifyPassword("An0ther-Secret!", row?.encrypted_password ?? null)).toBe(true);
    const bannedFor = new Date(row?.banned_until ?? 0).getTime() - Date.now();
    expect(Math.abs(bannedFor - 24 * 3600_000)).toBeLessThan(60_000);

    const unban = await admin.updateUserById(user.id, { ban_duration: "none" });
    expect(unban.error).toBeNull();
    expect((await findUserById(t.db.kysely, user.id))?.banned_until).toBeNull();
    const badBan = await admin.updateUserById(user.id, { ban_duration: "forever" });
    expect(badBan.error).toMatchObject({ status: 400, code: "validation_failed" });
    await createConfirmedUser(t, "taken@example.test", PASSWORD);
    const taken = await admin.updateUserById(user.id, { email: "taken@example.test" });
    expect(taken.error).toMatchObject({ status: 422, code: "email_exists" });
    const weak = await admin.updateUserById(user.id, { password: "short" });
    expect(weak.error).toMatchObject({ status: 422, code: "weak_password" });
    const missing = await admin.updateUserById(crypto.randomUUID(), { user_metadata: {} });
    expect(missing.error).toMatchObject({ status: 404, code: "user_not_found" });
    expect(await auditActions(user.id)).toEqual(["user_modified", "user_modified", "user_modified"]);
  });

  it("deleteUser removes the user with their sessions and factors", async () => {
    const admin = t.admin().auth.admin;
    const user = await createConfirmedUser(t, "delete@example.test", PASSWORD);
    await createSession(t.auth, user, { method: "password" });
    const res = await admin.deleteUser(user.id);
    expect(res.error).toBeNull();
    expect(res.data.user?.id).toBe(user.id);
    const left = await sql<{ n: string }>`
      select (select count(*) from auth.users where id = ${user.id}) + (select count(*) from auth.sessions where user_id = ${user.id})
             + (select count(*) from auth.identities where user_id = ${user.id}) as n`.execute(t.db.kysely);
    expect(Number(left.rows[0]?.n)).toBe(0);
    expect((await admin.getUserById(user.id)).error).toMatchObject({ status: 404, code: "user_not_found" });
    expect((await admin.deleteUser(user.id)).error).toMatchObject({ status: 404, code: "user_not_found" });
    expect(await auditActions(user.id)).toEqual(["user_deleted"]);
  });

  it("admin.mfa lists and deletes a user's factors", async () => {
    const admin = t.admin().auth.admin;
    const user = await createConfirmedUser(t, "factors@example.test", PASSWORD);
    const { rows } = await sql<{ id: string }>`
      insert into auth.mfa_factors (user_id, friendly_name, factor_type, status, secret)
      values (${user.id}, 'Lost phone', 'totp', 'verified', 'JBSWY3DPEHPK3PXP') returning id`.execute(t.db.kysely);
    const factorId = rows[0]?.id ?? "";
    const listed = await admin.mfa.listFactors({ userId: user.id });
    expect(listed.data?.factors).toEqual([
      expect.objectContaining({ id: factorId, factor_type: "totp", status: "verified", friendly_name: "Lost phone" }),
    ]);
    expect(JSON.stringify(listed.data)).not.toContain("JBSWY3DPEHPK3PXP");
    const deleted = await admin.mfa.deleteFactor({ userId: user.id, id: factorId });
    expect(deleted.error).toBeNull();
    expect((await admin.mfa.listFactors({ userId: user.id })).data?.factors).toEqual([]);
  });
});

describe("admin listUsers pagination", () => {
  it("pages newest first with X-Total-Count and Link headers that supabase-js understands", async () => {
    const local = await createTestAuth();
    try {
      const admin = local.admin().auth.admin;
      const ids: string[] = [];
      for (let i = 1; i <= 5; i++) {
        const res = await admin.createUser({ email: `page${i}@example.test`, email_confirm: true });
        ids.push(res.data.user?.id ?? "");
        // Distinct created_at values make "newest first" observable.
        await new Promise((r) => setTimeout(r, 5));
      }
      const first = await admin.listUsers({ page: 1, perPage: 2 });
      expect(first.error).toBeNull();
      expect(first.data).toMatchObject({ nextPage: 2, lastPage: 3, total: 5, aud: "authenticated" });
      expect(first.data.users.map((u) => u.id)).toEqual([ids[4], ids[3]]);
      const last = await admin.listUsers({ page: 3, perPage: 2 });
      expect(last.data).toMatchObject({ nextPage: null, lastPage: 3, total: 5 });
      expect(last.data.users.map((u) => u.id)).toEqual([ids[0]]);
      const all = await admin.listUsers();
      expect(all.data.users).toHaveLength(5);

      const res = await handleAuthRequest(
        new Request("http://murmur.test/auth/v1/admin/users?page=2&per_page=2", {
          headers: { authorization: `Bearer ${local.auth.keys.serviceRoleKey}` },
        }),
        local.auth,
        { ip: "127.0.0.1", userAgent: "vitest" },
      );
      expect(res.headers.get("x-total-count")).toBe("5");
      expect(res.headers.get("link")).toBe(
        '</auth/v1/admin/users?page=3&per_page=2>; rel="next", </auth/v1/admin/users?page=3&per_page=2>; rel="last"',
      );
      const filtered = await handleAuthRequest(
        new Request("http://murmur.test/auth/v1/admin/users?filter=page3", {
          headers: { authorization: `Bearer ${local.auth.keys.serviceRoleKey}` },
        }),
        local.auth,
        { ip: "127.0.0.1", userAgent: "vitest" },
      );
      const body = (await filtered.json()) as { users: { email: string }[] };
      expect(body.users.map((u) => u.email)).toEqual(["page3@example.test"]);
      const bad = await handleAuthRequest(
        new Request("http://murmur.test/auth/v1/admin/users?per_page=-1", {
          headers: { authorization: `Bearer ${local.auth.keys.serviceRoleKey}` },
        }),
        local.auth,
        { ip: "127.0.0.1", userAgent: "vitest" },
      );
      expect(bad.status).toBe(400);
    } finally {
      await local.close();
    }
  });
});

describe("admin invite", () => {
  it("creates the user and emails a single-use /verify link stored as a hash", async () => {
    const admin = t.admin().auth.admin;
    const res = await admin.inviteUserByEmail("New.Colleague@Example.test", {
      data: { locale: "fr", full_name: "New Colleague" },
      redirectTo: "http://murmur.test/accept-invite",
    });
    expect(res.error).toBeNull();
    const user = res.data.user;
    expect(user).toMatchObject({ email: "new.colleague@example.test", user_metadata: { full_name: "New Colleague" } });
    expect(user?.invited_at).toBeTruthy();
    expect(user?.email_confirmed_at).toBeUndefined();

    const mail = (await t.outbox()).filter((m) => m.template === "invite").at(-1);
    expect(mail).toMatchObject({ channel: "email", recipient: "new.colleague@example.test" });
    expect(mail?.subject).toMatch(/invit/i);
    expect(mail?.subject).not.toBe("You have been invited to Murmur AI Scribe");
    const link = new URL(/http:\/\/murmur\.test\/auth\/v1\/verify\?\S+/.exec(mail?.text_body ?? "")?.[0] ?? "http://x");
    expect(link.searchParams.get("type")).toBe("invite");
    expect(link.searchParams.get("redirect_to")).toBe("http://murmur.test/accept-invite");
    const token = link.searchParams.get("token") ?? "";
    const stored = await sql<{ token_type: string; relates_to: string; redirect_to: string; seconds: number }>`
      select token_type, relates_to, redirect_to, extract(epoch from expires_at - now())::int as seconds
      from auth.one_time_tokens where token_hash = ${hashToken(token)}`.execute(t.db.kysely);
    expect(stored.rows).toEqual([
      {
        token_type: "invite",
        relates_to: "new.colleague@example.test",
        redirect_to: "http://murmur.test/accept-invite",
        seconds: expect.any(Number),
      },
    ]);
    expect(Math.abs((stored.rows[0]?.seconds ?? 0) - t.auth.config.otpExpirySeconds)).toBeLessThan(10);
    expect(await auditActions(user?.id ?? "")).toEqual(["user_invited"]);

    // Re-inviting someone who has not accepted yet replaces the link.
    const again = await admin.inviteUserByEmail("new.colleague@example.test", { redirectTo: "https://evil.example/" });
    expect(again.error).toBeNull();
    const tokens = await sql<{ redirect_to: string }>`
      select redirect_to from auth.one_time_tokens where user_id = ${user?.id ?? ""}`.execute(t.db.kysely);
    expect(tokens.rows).toEqual([{ redirect_to: "http://murmur.test" }]);

    // The core's GET /verify accepts the newest link: the invitee lands signed in and confirmed.
    if (hasAuthRoute("GET", "/verify")) {
      const newest = await lastEmailTo(t, "new.colleague@example.test");
      expect(newest.link).not.toBe(link.toString());
      expect((await openLink(t, link.toString())).fragment.get("error_code")).toBe("otp_expired");
      const opened = await openLink(t, newest.link ?? "");
      expect(opened.location.startsWith("http://murmur.test")).toBe(true);
      expect(opened.fragment.get("access_token")).toBeTruthy();
      expect(opened.fragment.get("type")).toBe("invite");
      expect((await findUserById(t.db.kysely, user?.id ?? ""))?.email_confirmed_at).toBeTruthy();
    }
  });

  it("refuses an address that already belongs to a confirmed user", async () => {
    await createConfirmedUser(t, "member@example.test", PASSWORD);
    const res = await t.admin().auth.admin.inviteUserByEmail("member@example.test");
    expect(res.error).toMatchObject({ status: 422, code: "email_exists" });
    const empty = await raw("POST", "/invite", { token: t.auth.keys.serviceRoleKey, body: {} });
    expect(empty).toMatchObject({ status: 400, body: { code: "validation_failed" } });
  });
});
