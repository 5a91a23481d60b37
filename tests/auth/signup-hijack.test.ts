// Issue 17: the pre-confirmation hijack GoTrue leaves open. Someone signs up first with another
// person's address and a password of their own; when the owner of the address confirms, signs in
// by link or code, that first password must not open the account.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestAuth, lastEmailTo, openLink, type TestAuth } from "#tests/setup/auth.ts";

const ATTACKER = "Attacker-Pass-41";
const OWNER = "Owners-Own-Pass-77";
let t: TestAuth;

beforeAll(async () => {
  t = await createTestAuth();
});
afterAll(() => t.close());

async function signsIn(email: string, password: string): Promise<boolean> {
  const { error } = await t.client().auth.signInWithPassword({ email, password });
  return error === null;
}

describe("a sign-up before the owner of the address", () => {
  it("the owner's own sign-up, confirmed by its link, sets the owner's password; the first one no longer works", async () => {
    const email = "owner-signs-up@example.org";
    await t.client().auth.signUp({ email, password: ATTACKER });
    await t.client().auth.signUp({ email, password: OWNER });
    const link = (await lastEmailTo(t, email)).link ?? "";
    expect((await openLink(t, link)).fragment.get("access_token")).toBeTruthy();
    expect(await signsIn(email, OWNER)).toBe(true);
    expect(await signsIn(email, ATTACKER)).toBe(false);
  });

  it("the same with the typed code of the owner's sign-up email", async () => {
    const email = "owner-types-code@example.org";
    await t.client().auth.signUp({ email, password: ATTACKER });
    await t.client().auth.signUp({ email, password: OWNER });
    const { code } = await lastEmailTo(t, email);
    const { error } = await t.client().auth.verifyOtp({ email, token: code ?? "", type: "signup" });
    expect(error).toBeNull();
    expect(await signsIn(email, OWNER)).toBe(true);
    expect(await signsIn(email, ATTACKER)).toBe(false);
  });

  it("the owner signing in by magic link confirms the address and drops the password nobody proved", async () => {
    const email = "owner-magic-link@example.org";
    await t.client().auth.signUp({ email, password: ATTACKER });
    await t.client().auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    const link = (await lastEmailTo(t, email)).link ?? "";
    expect((await openLink(t, link)).fragment.get("access_token")).toBeTruthy();
    expect(await signsIn(email, ATTACKER)).toBe(false);
  });

  it("a single ordinary sign-up still confirms and signs in with its password", async () => {
    const email = "ordinary@example.org";
    await t.client().auth.signUp({ email, password: OWNER });
    expect(await signsIn(email, OWNER)).toBe(false);
    await openLink(t, (await lastEmailTo(t, email)).link ?? "");
    expect(await signsIn(email, OWNER)).toBe(true);
  });
});
