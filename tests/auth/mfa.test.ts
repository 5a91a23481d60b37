import type { SupabaseClient } from "@supabase/supabase-js";
import { decodeJwt } from "jose";
import { sql } from "kysely";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleAuthRequest } from "#app/services/auth/api/router.server.ts";
import { MFA_RATE_LIMITS } from "#app/services/auth/mfa/limits.server.ts";
import { consumeRateLimit } from "#app/services/auth/rate-limit.server.ts";
import type { UserRow } from "#app/services/auth/users.server.ts";
import { createConfirmedUser, createTestAuth, hasAuthRoute, signedInClient, type TestAuth } from "#tests/setup/auth.ts";

const PASSWORD = "Correct-Horse-9";
let t: TestAuth;
let seq = 0;

beforeAll(async () => {
  t = await createTestAuth();
});
afterAll(() => t.close());

async function newUser(): Promise<{ user: UserRow; client: SupabaseClient }> {
  const user = await createConfirmedUser(t, `mfa-${++seq}@example.test`, PASSWORD);
  return { user, client: await signedInClient(t, user, PASSWORD) };
}

function totpCode(secret: string, timestamp = Date.now()): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({ timestamp });
}

async function accessToken(client: SupabaseClient): Promise<string> {
  const { data } = await client.auth.getSession();
  if (!data.session) throw new Error("no session");
  return data.session.access_token;
}

/** A raw call through the same router, for what supabase-js cannot send (other IPs, bad tokens). */
async function raw(method: string, path: string, options: { token?: string; body?: unknown; ip?: string } = {}) {
  const headers: Record<string, string> = { "content-type": "application/json", apikey: t.auth.keys.anonKey };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const res = await handleAuthRequest(
    new Request(`http://murmur.test/auth/v1${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    }),
    t.auth,
    { ip: options.ip ?? "127.0.0.1", userAgent: "vitest" },
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Enrols a TOTP factor and verifies it, leaving `client` at aal2. */
async function enrolVerified(client: SupabaseClient, friendlyName?: string) {
  const enrolled = await client.auth.mfa.enroll({ factorType: "totp", friendlyName });
  if (enrolled.error) throw enrolled.error;
  const challenge = await client.auth.mfa.challenge({ factorId: enrolled.data.id });
  if (challenge.error) throw challenge.error;
  const code = totpCode(enrolled.data.totp.secret);
  const verified = await client.auth.mfa.verify({ factorId: enrolled.data.id, challengeId: challenge.data.id, code });
  if (verified.error) throw verified.error;
  return { factorId: enrolled.data.id, secret: enrolled.data.totp.secret, code, session: verified.data };
}

describe("MFA: TOTP", () => {
  it("enrol → challenge → verify raises the session to aal2", async () => {
    const { user, client } = await newUser();
    const before = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(before.data).toMatchObject({ currentLevel: "aal1", nextLevel: "aal1" });
    const oldRefresh = (await client.auth.getSession()).data.session?.refresh_token;

    const enrolled = await client.auth.mfa.enroll({ factorType: "totp", friendlyName: "Phone app" });
    expect(enrolled.error).toBeNull();
    if (!enrolled.data) throw new Error("no enrolment");
    expect(enrolled.data).toMatchObject({ type: "totp", friendly_name: "Phone app" });
    expect(enrolled.data.totp.qr_code.startsWith("data:image/svg+xml;utf-8,<svg")).toBe(true);
    expect(enrolled.data.totp.qr_code).not.toContain("#");
    expect(enrolled.data.totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrolled.data.totp.uri).toMatch(/^otpauth:\/\/totp\/murmur\.test:mfa-\d+%40example\.test\?/);

    const challenge = await client.auth.mfa.challenge({ factorId: enrolled.data.id });
    expect(challenge.error).toBeNull();
    expect(challenge.data?.type).toBe("totp");
    expect(Math.abs((challenge.data?.expires_at ?? 0) - (Date.now() / 1000 + 300))).toBeLessThan(5);

    const verified = await client.auth.mfa.verify({
      factorId: enrolled.data.id,
      challengeId: challenge.data?.id ?? "",
      code: totpCode(enrolled.data.totp.secret),
    });
    expect(verified.error).toBeNull();
    const claims = decodeJwt(verified.data?.access_token ?? "");
    expect(claims.aal).toBe("aal2");
    expect((claims.amr as { method: string }[]).map((a) => a.method)).toEqual(["password", "totp"]);

    const after = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(after.data).toMatchObject({ currentLevel: "aal2", nextLevel: "aal2" });
    expect(after.data?.currentAuthenticationMethods.map((m) => (typeof m === "string" ? m : m.method))).toContain("totp");

    const factor = (
      await sql<{ status: string; last_used_step: string | null }>`
        select status, last_used_step from auth.mfa_factors where id = ${enrolled.data.id}`.execute(t.db.kysely)
    ).rows[0];
    expect(factor?.status).toBe("verified");
    expect(Number(factor?.last_used_step)).toBeGreaterThan(0);
    const session = (
      await sql<{ aal: string; factor_id: string }>`select aal, factor_id from auth.sessions where user_id = ${user.id}`.execute(
        t.db.kysely,
      )
    ).rows;
    expect(session).toEqual([{ aal: "aal2", factor_id: enrolled.data.id }]);
    const revoked = (
      await sql<{
        revoked: boolean;
      }>`select revoked from auth.refresh_tokens where token_hash = encode(sha256(${oldRefresh ?? ""}::bytea), 'hex')`.execute(
        t.db.kysely,
      )
    ).rows[0];
    expect(revoked?.revoked).toBe(true);
    const actions = (
      await sql<{
        action: string;
      }>`select action from auth.audit_log_entries where actor_id = ${user.id} order by created_at`.execute(t.db.kysely)
    ).rows.map((r) => r.action);
    expect(actions.filter((a) => a.startsWith("mfa_"))).toEqual(["mfa_factor_enrolled", "mfa_challenge_created", "mfa_verified"]);
  });

  it("a later aal1 sign-in of a user with a verified factor reports nextLevel aal2", async () => {
    const { user, client } = await newUser();
    const { factorId } = await enrolVerified(client);
    const second = await signedInClient(t, user, PASSWORD);
    const aal = await second.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(aal.data).toMatchObject({ currentLevel: "aal1", nextLevel: "aal2" });
    if (hasAuthRoute("GET", "/user")) {
      const factors = await second.auth.mfa.listFactors();
      expect(factors.data?.totp.map((f) => f.id)).toEqual([factorId]);
    }
    // Adding another factor takes aal2 once one is verified.
    const more = await second.auth.mfa.enroll({ factorType: "totp", friendlyName: "Second" });
    expect(more.error).toMatchObject({ status: 403, code: "insufficient_aal" });
  });

  it("verifying signs out the user's other aal1 sessions", async () => {
    const { user, client } = await newUser();
    const other = await signedInClient(t, user, PASSWORD);
    const otherToken = await accessToken(other);
    await enrolVerified(client);
    const res = await raw("POST", "/factors", { token: otherToken, body: { factor_type: "totp" } });
    expect(res).toMatchObject({ status: 403, body: { code: "session_not_found" } });
  });

  it("rejects a code used before, even on a new challenge, and accepts the next step's code", async () => {
    const { client } = await newUser();
    const { factorId, secret, code } = await enrolVerified(client);
    const again = await client.auth.mfa.challenge({ factorId });
    const reused = await client.auth.mfa.verify({ factorId, challengeId: again.data?.id ?? "", code });
    expect(reused.error).toMatchObject({ status: 422, code: "mfa_verification_failed", message: "Invalid TOTP code entered" });
    const next = totpCode(secret, Date.now() + 30_000);
    if (next !== code) {
      const ok = await client.auth.mfa.verify({ factorId, challengeId: again.data?.id ?? "", code: next });
      expect(ok.error).toBeNull();
    }
  });

  it("rejects wrong, malformed and empty codes", async () => {
    const { client } = await newUser();
    const enrolled = await client.auth.mfa.enroll({ factorType: "totp" });
    const factorId = enrolled.data?.id ?? "";
    const challenge = await client.auth.mfa.challenge({ factorId });
    const challengeId = challenge.data?.id ?? "";
    const real = totpCode(enrolled.data?.totp.secret ?? "");
    const wrong = String((Number(real) + 500_000) % 1_000_000).padStart(6, "0");
    for (const code of [wrong, "abcdef", "1234567"]) {
      const res = await client.auth.mfa.verify({ factorId, challengeId, code });
      expect(res.error).toMatchObject({ status: 422, code: "mfa_verification_failed" });
    }
    const empty = await client.auth.mfa.verify({ factorId, challengeId, code: "" });
    expect(empty.error).toMatchObject({ status: 400, code: "validation_failed" });
    const notUuid = await client.auth.mfa.verify({ factorId, challengeId: "nope", code: real });
    expect(notUuid.error).toMatchObject({ status: 400, code: "validation_failed" });
    // Failures leave the factor unverified and the challenge usable.
    const ok = await client.auth.mfa.verify({ factorId, challengeId, code: real });
    expect(ok.error).toBeNull();
  });

  it("rejects an expired challenge and deletes it", async () => {
    const { client } = await newUser();
    const enrolled = await client.auth.mfa.enroll({ factorType: "totp" });
    const factorId = enrolled.data?.id ?? "";
    const challenge = await client.auth.mfa.challenge({ factorId });
    const challengeId = challenge.data?.id ?? "";
    await sql`update auth.mfa_challenges set created_at = now() - interval '301 seconds' where id = ${challengeId}`.execute(
      t.db.kysely,
    );
    const res = await client.auth.mfa.verify({ factorId, challengeId, code: totpCode(enrolled.data?.totp.secret ?? "") });
    expect(res.error).toMatchObject({ status: 422, code: "mfa_challenge_expired" });
    const again = await client.auth.mfa.verify({ factorId, challengeId, code: totpCode(enrolled.data?.totp.secret ?? "") });
    expect(again.error).toMatchObject({ status: 422, code: "mfa_factor_not_found" });
  });

  it("only the IP that asked for a challenge can answer it, and only once", async () => {
    const { client } = await newUser();
    const token = await accessToken(client);
    const enrolled = await client.auth.mfa.enroll({ factorType: "totp" });
    const factorId = enrolled.data?.id ?? "";
    const challenge = await client.auth.mfa.challenge({ factorId });
    const code = totpCode(enrolled.data?.totp.secret ?? "");
    const body = { challenge_id: challenge.data?.id, code };
    const elsewhere = await raw("POST", `/factors/${factorId}/verify`, { token, body, ip: "203.0.113.9" });
    expect(elsewhere).toMatchObject({ status: 422, body: { code: "mfa_ip_address_mismatch" } });
    const ok = await raw("POST", `/factors/${factorId}/verify`, { token, body });
    expect(ok.status).toBe(200);
    const replay = await raw("POST", `/factors/${factorId}/verify`, { token: ok.body.access_token as string, body });
    expect(replay).toMatchObject({ status: 422, body: { code: "mfa_ip_address_mismatch" } });
  });

  it("another user's factor, an unknown id or a malformed id is 404 mfa_factor_not_found", async () => {
    const alice = await newUser();
    const bob = await newUser();
    const enrolled = await alice.client.auth.mfa.enroll({ factorType: "totp" });
    const factorId = enrolled.data?.id ?? "";
    const bobToken = await accessToken(bob.client);
    for (const id of [factorId, crypto.randomUUID(), "not-a-uuid"]) {
      const challenge = await raw("POST", `/factors/${id}/challenge`, { token: bobToken, body: {} });
      expect(challenge).toMatchObject({ status: 404, body: { code: "mfa_factor_not_found" } });
      const verify = await raw("POST", `/factors/${id}/verify`, {
        token: bobToken,
        body: { challenge_id: crypto.randomUUID(), code: "123456" },
      });
      expect(verify).toMatchObject({ status: 404, body: { code: "mfa_factor_not_found" } });
      const unenroll = await raw("DELETE", `/factors/${id}`, { token: bobToken });
      expect(unenroll).toMatchObject({ status: 404, body: { code: "mfa_factor_not_found" } });
    }
  });

  it("unenrolling a verified factor needs aal2 and downgrades the sessions that used it", async () => {
    const { user, client } = await newUser();
    const { factorId } = await enrolVerified(client);
    const aal1 = await signedInClient(t, user, PASSWORD);
    const refused = await aal1.auth.mfa.unenroll({ factorId });
    expect(refused.error).toMatchObject({ status: 422, code: "insufficient_aal" });

    const done = await client.auth.mfa.unenroll({ factorId });
    expect(done.error).toBeNull();
    expect(done.data).toEqual({ id: factorId });
    const rows = (
      await sql<{ aal: string; factor_id: string | null; amr: { method: string }[] }>`
        select aal, factor_id, amr from auth.sessions where user_id = ${user.id} and amr @> '[{"method":"totp"}]'::jsonb
        union all
        select aal, factor_id, amr from auth.sessions where user_id = ${user.id} and aal = 'aal2'`.execute(t.db.kysely)
    ).rows;
    expect(rows).toEqual([]);
    const audit = (
      await sql<{
        n: string;
      }>`select count(*) as n from auth.audit_log_entries where action = 'mfa_factor_deleted' and actor_id = ${user.id}`.execute(
        t.db.kysely,
      )
    ).rows[0];
    expect(Number(audit?.n)).toBe(1);
  });

  it("an unverified factor can be unenrolled from aal1", async () => {
    const { client } = await newUser();
    const enrolled = await client.auth.mfa.enroll({ factorType: "totp" });
    const res = await client.auth.mfa.unenroll({ factorId: enrolled.data?.id ?? "" });
    expect(res.error).toBeNull();
  });

  it("enforces unique friendly names and at most 10 factors; abandoned enrolments expire", async () => {
    const { user, client } = await newUser();
    await client.auth.mfa.enroll({ factorType: "totp", friendlyName: "Laptop" });
    const dup = await client.auth.mfa.enroll({ factorType: "totp", friendlyName: "Laptop" });
    expect(dup.error).toMatchObject({ status: 422, code: "mfa_factor_name_conflict" });
    for (let i = 1; i < 10; i++) {
      const res = await client.auth.mfa.enroll({ factorType: "totp", friendlyName: `App ${i}` });
      expect(res.error).toBeNull();
    }
    const eleventh = await client.auth.mfa.enroll({ factorType: "totp", friendlyName: "One too many" });
    expect(eleventh.error).toMatchObject({ status: 422, code: "too_many_enrolled_mfa_factors" });

    // Never challenged and older than 5 minutes: dropped on the next enrolment.
    await sql`update auth.mfa_factors set created_at = now() - interval '10 minutes' where user_id = ${user.id}`.execute(
      t.db.kysely,
    );
    const fresh = await client.auth.mfa.enroll({ factorType: "totp", friendlyName: "Laptop" });
    expect(fresh.error).toBeNull();
    const left = (
      await sql<{ n: string }>`select count(*) as n from auth.mfa_factors where user_id = ${user.id}`.execute(t.db.kysely)
    ).rows[0];
    expect(Number(left?.n)).toBe(1);
  });

  it("validates the enrolment body", async () => {
    const { client } = await newUser();
    const token = await accessToken(client);
    const bad = await raw("POST", "/factors", { token, body: { factor_type: "sms" } });
    expect(bad).toMatchObject({ status: 400, body: { code: "validation_failed" } });
    const webauthn = await raw("POST", "/factors", { token, body: { factor_type: "webauthn" } });
    expect(webauthn).toMatchObject({ status: 422, body: { code: "mfa_webauthn_enroll_disabled" } });
    const longName = await raw("POST", "/factors", { token, body: { factor_type: "totp", friendly_name: "x".repeat(300) } });
    expect(longName).toMatchObject({ status: 400, body: { code: "validation_failed" } });
  });
});

describe("MFA: phone", () => {
  it("sends the code by SMS (outbox) and verifies it", async () => {
    const { client } = await newUser();
    const enrolled = await client.auth.mfa.enroll({ factorType: "phone", phone: "+1 555 010 0199", friendlyName: "Mobile" });
    expect(enrolled.error).toBeNull();
    expect(enrolled.data).toMatchObject({ type: "phone", friendly_name: "Mobile", phone: "+1 555 010 0199" });
    const factorId = enrolled.data?.id ?? "";

    const challenge = await client.auth.mfa.challenge({ factorId });
    expect(challenge.error).toBeNull();
    expect(challenge.data?.type).toBe("phone");
    const sms = (await t.outbox()).filter((m) => m.channel === "sms").at(-1);
    expect(sms).toMatchObject({ recipient: "+15550100199", template: "sms_mfa" });
    const code = /\b(\d{6})\b/.exec(sms?.text_body ?? "")?.[1] ?? "";
    expect(code).toMatch(/^\d{6}$/);

    const tooSoon = await client.auth.mfa.challenge({ factorId });
    expect(tooSoon.error).toMatchObject({ status: 429, code: "over_sms_send_rate_limit" });

    const challengeId = challenge.data?.id ?? "";
    const wrong = await client.auth.mfa.verify({ factorId, challengeId, code: code === "000000" ? "111111" : "000000" });
    expect(wrong.error).toMatchObject({
      status: 422,
      code: "mfa_verification_failed",
      message: "Invalid MFA Phone code entered",
    });
    const ok = await client.auth.mfa.verify({ factorId, challengeId, code });
    expect(ok.error).toBeNull();
    const claims = decodeJwt(ok.data?.access_token ?? "");
    expect(claims.aal).toBe("aal2");
    expect((claims.amr as { method: string }[]).map((a) => a.method)).toContain("mfa/phone");
    const twice = await client.auth.mfa.enroll({ factorType: "phone", phone: "+15550100199" });
    expect(twice.error).toMatchObject({ status: 422, code: "mfa_verified_factor_exists" });
  });

  it("rejects missing or malformed numbers", async () => {
    const { client } = await newUser();
    const missing = await client.auth.mfa.enroll({ factorType: "phone", phone: "" });
    expect(missing.error).toMatchObject({ status: 400, code: "validation_failed" });
    const bad = await client.auth.mfa.enroll({ factorType: "phone", phone: "+0 12" });
    expect(bad.error).toMatchObject({ status: 400, code: "validation_failed" });
  });
});

describe("MFA: access", () => {
  it("needs a valid bearer token of a live session", async () => {
    expect(await raw("POST", "/factors", { body: { factor_type: "totp" } })).toMatchObject({
      status: 401,
      body: { code: "no_authorization" },
    });
    expect(await raw("POST", "/factors", { token: "abc.def.ghi", body: { factor_type: "totp" } })).toMatchObject({
      status: 403,
      body: { code: "bad_jwt" },
    });
    // The anon key is a valid JWT but no user's.
    expect(await raw("POST", "/factors", { token: t.auth.keys.anonKey, body: { factor_type: "totp" } })).toMatchObject({
      status: 403,
      body: { code: "bad_jwt" },
    });
    const { user, client } = await newUser();
    const token = await accessToken(client);
    await sql`update auth.users set banned_until = now() + interval '1 hour' where id = ${user.id}`.execute(t.db.kysely);
    expect(await raw("POST", "/factors", { token, body: { factor_type: "totp" } })).toMatchObject({
      status: 403,
      body: { code: "user_banned" },
    });
    await sql`delete from auth.sessions where user_id = ${user.id}`.execute(t.db.kysely);
    expect(await raw("POST", "/factors", { token, body: { factor_type: "totp" } })).toMatchObject({
      status: 403,
      body: { code: "session_not_found" },
    });
  });

  it("rate-limits /factors per user and per IP", async () => {
    const { user, client } = await newUser();
    for (let i = 0; i < MFA_RATE_LIMITS.perUser.limit; i++) {
      await consumeRateLimit(t.auth, MFA_RATE_LIMITS.perUser, user.id).catch(() => undefined);
    }
    const limited = await client.auth.mfa.enroll({ factorType: "totp" });
    expect(limited.error).toMatchObject({ status: 429, code: "over_request_rate_limit" });

    const ip = "198.51.100.77";
    for (let i = 0; i < MFA_RATE_LIMITS.perIp.limit; i++) {
      await consumeRateLimit(t.auth, MFA_RATE_LIMITS.perIp, ip).catch(() => undefined);
    }
    const other = await newUser();
    const res = await raw("POST", "/factors", { token: await accessToken(other.client), body: { factor_type: "totp" }, ip });
    expect(res).toMatchObject({ status: 429, body: { code: "over_request_rate_limit" } });
  });
});
