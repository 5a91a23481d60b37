import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestAuth, lastEmailTo, openLink, type TestAuth } from "#tests/setup/auth.ts";

const PASSWORD = "Correct-Horse-7";
const CALLBACK = "http://murmur.test/auth/callback";

let t: TestAuth;
beforeAll(async () => {
  t = await createTestAuth();
});
afterAll(() => t.close());
beforeEach(async () => {
  await sql`delete from auth.rate_limits`.execute(t.db.kysely);
});

/** Signs up with PKCE and opens the confirmation link: the client and the code it came back with. */
async function confirmedWithCode(email: string) {
  const client = t.client({ flowType: "pkce" });
  const { error } = await client.auth.signUp({ email, password: PASSWORD, options: { emailRedirectTo: CALLBACK } });
  if (error) throw error;
  const opened = await openLink(t, (await lastEmailTo(t, email)).link ?? "");
  return { client, opened, code: opened.query.get("code") ?? "" };
}

describe("PKCE email flows and POST /token?grant_type=pkce", () => {
  it("turns a confirmation link into ?code= that only the starting client can exchange", async () => {
    const { client, opened, code } = await confirmedWithCode("pkce@example.org");
    expect(opened.status).toBe(303);
    expect(opened.location.startsWith(`${CALLBACK}?code=`)).toBe(true);
    expect(opened.fragment.get("access_token")).toBeNull();

    const { data, error } = await client.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(data.user?.email).toBe("pkce@example.org");
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect(data.session?.refresh_token).toBeTruthy();
    const amr = JSON.parse(Buffer.from(data.session?.access_token.split(".")[1] ?? "", "base64url").toString()).amr;
    expect(amr).toEqual([expect.objectContaining({ method: "email/signup" })]);
  });

  it("accepts each code once: a second exchange is flow_state_not_found", async () => {
    const { code } = await confirmedWithCode("pkce-once@example.org");
    const verifier = "v".repeat(43);
    await sql`update auth.flow_state set code_challenge = ${verifier}, code_challenge_method = 'plain' where used_at is null`.execute(
      t.db.kysely,
    );
    const exchange = () =>
      t.fetch("http://murmur.test/auth/v1/token?grant_type=pkce", {
        method: "POST",
        body: JSON.stringify({ auth_code: code, code_verifier: verifier }),
      });
    expect((await exchange()).status).toBe(200);
    const again = await exchange();
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ code: "flow_state_not_found" });
  });

  it("refuses a wrong verifier with bad_code_verifier, and the code is spent", async () => {
    const { client, code } = await confirmedWithCode("pkce-wrong@example.org");
    const res = await t.fetch("http://murmur.test/auth/v1/token?grant_type=pkce", {
      method: "POST",
      body: JSON.stringify({ auth_code: code, code_verifier: "w".repeat(43) }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: "bad_code_verifier",
      msg: "code challenge does not match previously saved code verifier",
    });
    const { error } = await client.auth.exchangeCodeForSession(code);
    expect(error).toMatchObject({ code: "flow_state_not_found", status: 404 });
  });

  it("refuses an expired code with flow_state_expired", async () => {
    const { client, code } = await confirmedWithCode("pkce-late@example.org");
    await sql`update auth.flow_state set expires_at = now() - interval '1 minute'`.execute(t.db.kysely);
    const { error } = await client.auth.exchangeCodeForSession(code);
    expect(error).toMatchObject({ code: "flow_state_expired", status: 400 });
  });

  it("stores the code only as a hash", async () => {
    const { code } = await confirmedWithCode("pkce-hash@example.org");
    const dump = JSON.stringify((await sql`select * from auth.flow_state`.execute(t.db.kysely)).rows);
    expect(code).toBeTruthy();
    expect(dump).not.toContain(code);
  });

  it("a PKCE recovery link signs in with PASSWORD_RECOVERY and amr recovery", async () => {
    await confirmedWithCode("pkce-recover@example.org");
    const client = t.client({ flowType: "pkce" });
    const events: string[] = [];
    client.auth.onAuthStateChange((event) => void events.push(event));
    await client.auth.resetPasswordForEmail("pkce-recover@example.org", { redirectTo: CALLBACK });
    const opened = await openLink(t, (await lastEmailTo(t, "pkce-recover@example.org")).link ?? "");
    const { data, error } = await client.auth.exchangeCodeForSession(opened.query.get("code") ?? "");
    expect(error).toBeNull();
    expect(events).toContain("PASSWORD_RECOVERY");
    const amr = JSON.parse(Buffer.from(data.session?.access_token.split(".")[1] ?? "", "base64url").toString()).amr;
    expect(amr[0].method).toBe("recovery");
  });

  it("a PKCE magic link comes back with a code too", async () => {
    const client = t.client({ flowType: "pkce" });
    await client.auth.signInWithOtp({ email: "pkce-magic@example.org", options: { emailRedirectTo: CALLBACK } });
    const opened = await openLink(t, (await lastEmailTo(t, "pkce-magic@example.org")).link ?? "");
    const { data, error } = await client.auth.exchangeCodeForSession(opened.query.get("code") ?? "");
    expect(error).toBeNull();
    expect(data.user?.email).toBe("pkce-magic@example.org");
  });

  it("validates the challenge like GoTrue", async () => {
    const res = await t.fetch("http://murmur.test/auth/v1/signup", {
      method: "POST",
      body: JSON.stringify({
        email: "short@example.org",
        password: PASSWORD,
        code_challenge: "abc",
        code_challenge_method: "s256",
      }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "validation_failed" });
    const missing = await t.fetch("http://murmur.test/auth/v1/token?grant_type=pkce", { method: "POST", body: "{}" });
    expect(await missing.json()).toMatchObject({ code: "validation_failed" });
  });
});
