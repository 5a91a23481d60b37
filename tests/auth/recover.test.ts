import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestAuth, emailsTo, lastEmailTo, openLink, type TestAuth } from "#tests/setup/auth.ts";

const PASSWORD = "Correct-Horse-7";
const NEW_PASSWORD = "Brand-New-Pass-8";

let t: TestAuth;
beforeAll(async () => {
  t = await createTestAuth({ AUTH_EMAIL_AUTOCONFIRM: "true" });
  await t.client().auth.signUp({ email: "forgot@example.org", password: PASSWORD });
  await t.client().auth.signUp({ email: "forgot-link@example.org", password: PASSWORD });
});
afterAll(() => t.close());
beforeEach(async () => {
  await sql`delete from auth.rate_limits`.execute(t.db.kysely);
});

describe("POST /recover", () => {
  it("emails a recovery link and code to an account and records the request", async () => {
    const { data, error } = await t.client().auth.resetPasswordForEmail("forgot@example.org", {
      redirectTo: "http://murmur.test/update-password",
    });
    expect(error).toBeNull();
    expect(data).toEqual({});
    const mail = await lastEmailTo(t, "forgot@example.org");
    expect(mail.template).toBe("recovery");
    const link = new URL(mail.link ?? "");
    expect(link.searchParams.get("type")).toBe("recovery");
    expect(link.searchParams.get("redirect_to")).toBe("http://murmur.test/update-password");
    const { rows } = await sql`select 1 from auth.audit_log_entries where action = 'user_recovery_requested'`.execute(
      t.db.kysely,
    );
    expect(rows).toHaveLength(1);
  });

  it("gives an unknown address the same answer and sends nothing", async () => {
    const { data, error } = await t.client().auth.resetPasswordForEmail("ghost@example.org");
    expect(error).toBeNull();
    expect(data).toEqual({});
    expect(await emailsTo(t, "ghost@example.org")).toHaveLength(0);
  });

  it("refuses a malformed address", async () => {
    const { error } = await t.client().auth.resetPasswordForEmail("ghost");
    expect(error).toMatchObject({ code: "email_address_invalid", status: 400 });
  });

  it("the code gives a recovery session (PASSWORD_RECOVERY) that may set a new password without a nonce", async () => {
    await t.client().auth.resetPasswordForEmail("forgot@example.org");
    const { code } = await lastEmailTo(t, "forgot@example.org");
    const client = t.client();
    const events: string[] = [];
    client.auth.onAuthStateChange((event) => void events.push(event));
    const { data, error } = await client.auth.verifyOtp({ email: "forgot@example.org", token: code ?? "", type: "recovery" });
    expect(error).toBeNull();
    expect(events).toContain("PASSWORD_RECOVERY");
    const amr = JSON.parse(Buffer.from(data.session?.access_token.split(".")[1] ?? "", "base64url").toString()).amr;
    expect(amr[0].method).toBe("recovery");

    // Even an hour later, the recovery session needs no reauthentication.
    await sql`update auth.sessions set created_at = now() - interval '1 hour'`.execute(t.db.kysely);
    const updated = await client.auth.updateUser({ password: NEW_PASSWORD });
    expect(updated.error).toBeNull();
    expect((await t.client().auth.signInWithPassword({ email: "forgot@example.org", password: PASSWORD })).error?.code).toBe(
      "invalid_credentials",
    );
    expect((await t.client().auth.signInWithPassword({ email: "forgot@example.org", password: NEW_PASSWORD })).error).toBeNull();
  });

  it("the link lands with type=recovery in the fragment", async () => {
    await t.client().auth.resetPasswordForEmail("forgot-link@example.org", { redirectTo: "http://murmur.test/update-password" });
    const opened = await openLink(t, (await lastEmailTo(t, "forgot-link@example.org")).link ?? "");
    expect(opened.location.startsWith("http://murmur.test/update-password#")).toBe(true);
    expect(opened.fragment.get("type")).toBe("recovery");
    expect(opened.fragment.get("access_token")).toBeTruthy();
  });
});
