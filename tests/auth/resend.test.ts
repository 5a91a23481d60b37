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

describe("POST /resend", () => {
  it("sends a new confirmation to an unconfirmed account; only the newest link works", async () => {
    await t.client().auth.signUp({ email: "pending@example.org", password: PASSWORD });
    const first = await lastEmailTo(t, "pending@example.org");
    const { error } = await t.client().auth.resend({ type: "signup", email: "pending@example.org" });
    expect(error).toBeNull();
    const mails = await emailsTo(t, "pending@example.org");
    expect(mails.map((m) => m.template)).toEqual(["confirmation", "confirmation"]);
    expect((await openLink(t, first.link ?? "")).fragment.get("error_code")).toBe("otp_expired");
    expect((await openLink(t, mails[1]?.link ?? "")).fragment.get("access_token")).toBeTruthy();
  });

  it("answers confirmed and unknown addresses the same way, without sending", async () => {
    await t.client().auth.signUp({ email: "done@example.org", password: PASSWORD });
    await openLink(t, (await lastEmailTo(t, "done@example.org")).link ?? "");
    const confirmed = await t.client().auth.resend({ type: "signup", email: "done@example.org" });
    const unknown = await t.client().auth.resend({ type: "signup", email: "unknown@example.org" });
    expect(confirmed.error).toBeNull();
    expect(unknown.error).toBeNull();
    expect(await emailsTo(t, "done@example.org")).toHaveLength(1);
    expect(await emailsTo(t, "unknown@example.org")).toHaveLength(0);
  });

  it("re-sends a pending email change to the new address", async () => {
    await t.client().auth.signUp({ email: "mover@example.org", password: PASSWORD });
    const opened = await openLink(t, (await lastEmailTo(t, "mover@example.org")).link ?? "");
    const client = t.client();
    await client.auth.setSession({
      access_token: opened.fragment.get("access_token") ?? "",
      refresh_token: opened.fragment.get("refresh_token") ?? "",
    });
    await client.auth.updateUser({ email: "moved@example.org" });
    const { error } = await t.client().auth.resend({ type: "email_change", email: "mover@example.org" });
    expect(error).toBeNull();
    expect((await emailsTo(t, "moved@example.org")).map((m) => m.template)).toEqual(["email_change", "email_change"]);
    // Nothing is re-sent when no change is pending.
    await t.client().auth.resend({ type: "email_change", email: "done@example.org" });
    expect(await emailsTo(t, "done@example.org")).toHaveLength(1);
  });

  it("refuses unknown types and phone types", async () => {
    const res = await t.fetch("http://murmur.test/auth/v1/resend", {
      method: "POST",
      body: JSON.stringify({ type: "recovery", email: "x@example.org" }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "validation_failed" });
    const sms = await t.client().auth.resend({ type: "sms", phone: "+33600000000" });
    expect(sms.error?.code).toBe("phone_provider_disabled");
  });
});
