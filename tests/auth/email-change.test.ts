import type { SupabaseClient } from "@supabase/supabase-js";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestAuth, emailsTo, lastEmailTo, openLink, type TestAuth } from "#tests/setup/auth.ts";

const PASSWORD = "Correct-Horse-7";

let t: TestAuth;
beforeAll(async () => {
  t = await createTestAuth({ AUTH_EMAIL_AUTOCONFIRM: "true" });
});
afterAll(() => t.close());
beforeEach(async () => {
  await sql`delete from auth.rate_limits`.execute(t.db.kysely);
});

async function signedIn(email: string): Promise<SupabaseClient> {
  const client = t.client();
  const { error } = await client.auth.signUp({ email, password: PASSWORD });
  if (error) throw error;
  return client;
}

describe("email change through PUT /user", () => {
  it("keeps the old address until the link sent to the new one is opened", async () => {
    const client = await signedIn("old@example.org");
    const { data, error } = await client.auth.updateUser(
      { email: "New@Example.org" },
      { emailRedirectTo: "http://murmur.test/settings" },
    );
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ email: "old@example.org", new_email: "new@example.org" });
    expect(data.user?.email_change_sent_at).toBeTruthy();
    expect(await emailsTo(t, "old@example.org")).toHaveLength(0);
    const mail = await lastEmailTo(t, "new@example.org");
    expect(mail.template).toBe("email_change");
    expect(new URL(mail.link ?? "").searchParams.get("type")).toBe("email_change");

    const opened = await openLink(t, mail.link ?? "");
    expect(opened.location.startsWith("http://murmur.test/settings#")).toBe(true);
    expect(opened.fragment.get("type")).toBe("email_change");
    const { data: after } = await client.auth.getUser();
    expect(after.user?.email).toBe("new@example.org");
    expect(after.user?.new_email).toBeUndefined();
    expect(after.user?.identities?.[0]?.identity_data).toMatchObject({ email: "new@example.org", email_verified: true });
    expect((await t.client().auth.signInWithPassword({ email: "new@example.org", password: PASSWORD })).error).toBeNull();
  });

  it("also applies with the code typed in (type email_change)", async () => {
    const client = await signedIn("typed@example.org");
    await client.auth.updateUser({ email: "typed-new@example.org" });
    const { code } = await lastEmailTo(t, "typed-new@example.org");
    const { data, error } = await t.client().auth.verifyOtp({
      email: "typed-new@example.org",
      token: code ?? "",
      type: "email_change",
    });
    expect(error).toBeNull();
    expect(data.user?.email).toBe("typed-new@example.org");
  });

  it("refuses an address another account uses", async () => {
    await signedIn("holder@example.org");
    const client = await signedIn("wants@example.org");
    const { error } = await client.auth.updateUser({ email: "holder@example.org" });
    expect(error).toMatchObject({ code: "email_exists", status: 422 });
    expect(await emailsTo(t, "holder@example.org")).toHaveLength(0);
  });

  it("fails the link if the address was taken after the request", async () => {
    const client = await signedIn("slow@example.org");
    await client.auth.updateUser({ email: "contested@example.org" });
    const mail = await lastEmailTo(t, "contested@example.org");
    await signedIn("contested@example.org");
    const opened = await openLink(t, mail.link ?? "");
    expect(opened.fragment.get("error_code")).toBe("email_exists");
    expect((await client.auth.getUser()).data.user?.email).toBe("slow@example.org");
  });

  it("only the newest change request counts", async () => {
    const client = await signedIn("fickle@example.org");
    await client.auth.updateUser({ email: "first-choice@example.org" });
    const first = await lastEmailTo(t, "first-choice@example.org");
    await client.auth.updateUser({ email: "second-choice@example.org" });
    expect((await openLink(t, first.link ?? "")).fragment.get("error_code")).toBe("otp_expired");
    await openLink(t, (await lastEmailTo(t, "second-choice@example.org")).link ?? "");
    expect((await client.auth.getUser()).data.user?.email).toBe("second-choice@example.org");
  });
});
