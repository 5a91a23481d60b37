import { randomUUID } from "node:crypto";
import { type APIRequestContext, expect, type Page } from "@playwright/test";
import * as OTPAuth from "otpauth";

export const STRONG_PASSWORD = "Correct-Horse-9-Battery";

export function uniqueEmail(tag: string): string {
  return `${tag}-${randomUUID().slice(0, 8)}@murmur.test`;
}

interface MailboxMessage {
  to: string;
  subject: string | null;
  text: string;
  created_at: string;
}

/** The newest email to `to` whose text has a verify link, from the dev mailbox. */
export async function latestLink(request: APIRequestContext, to: string, origin = ""): Promise<string> {
  let link = "";
  await expect
    .poll(async () => {
      const res = await request.get(`${origin}/dev/mailbox.json`);
      const messages = (await res.json()) as MailboxMessage[];
      const mail = messages.find((m) => m.to === to && /\/auth\/v1\/verify\?/.test(m.text));
      link = mail?.text.match(/https?:\/\/\S+\/auth\/v1\/verify\?\S+/)?.[0] ?? "";
      return link;
    })
    .not.toBe("");
  return link;
}

/** Signs up through the form and confirms through the emailed link; ends signed in on the dashboard. */
export async function signUpAndConfirm(page: Page, email: string, prefix = ""): Promise<void> {
  await page.goto(`${prefix}/signup`);
  await page.locator('input[name="fullName"]').fill("Ana Ruiz");
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(STRONG_PASSWORD);
  await page.locator('form[method="post"] button[type="submit"]').click();
  await expect(page).toHaveURL(new RegExp(`${prefix}/signup\\?showCompletion=true`));
  // A prefix may be another server's address (extra instances in a spec) or just a language.
  const link = await latestLink(page.request, email, /^https?:/.test(prefix) ? new URL(prefix).origin : "");
  await page.goto(link);
  await expect(page).toHaveURL(new RegExp(`${prefix}/dashboard$`));
}

export async function signIn(page: Page, email: string, password: string, prefix = ""): Promise<void> {
  await page.goto(`${prefix}/login`);
  await page.locator('form:has(input[name="password"]) input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('form:has(input[name="password"]) button[type="submit"]').click();
}

/** A TOTP code for `secret` at a given 30-second step offset from now. */
export function totpCode(secret: string, stepOffset = 0): string {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" });
  return totp.generate({ timestamp: Date.now() + stepOffset * 30_000 });
}

/** Opens the account menu and signs out. */
export async function signOut(page: Page): Promise<void> {
  await page.locator("details.user-menu > summary").click();
  await page.getByTestId("sign-out").click();
  await expect(page).toHaveURL(/\/login/);
}
