import { expect, test } from "@playwright/test";
import { latestLink, STRONG_PASSWORD, signIn, signOut, signUpAndConfirm, totpCode, uniqueEmail } from "./auth-helpers.ts";
import { t } from "./helpers.ts";

test("sign up, confirm from the mailbox, land on the dashboard", async ({ page }) => {
  const email = uniqueEmail("signup");
  await signUpAndConfirm(page, email);
  await expect(page.locator("details.user-menu > summary")).toHaveText(email);
  await expect(page.locator("h1")).toHaveText(t("en", "app", "dashboard.title"));
});

test("a wrong password is refused with a translated message", async ({ page }) => {
  const email = uniqueEmail("wrongpw");
  await signUpAndConfirm(page, email);
  await signOut(page);
  await signIn(page, email, "Not-The-Password-1");
  await expect(page.getByRole("alert")).toHaveText(t("en", "auth", "errors.invalid_credentials"));
  await expect(page).toHaveURL(/\/login/);
});

test("reset the password by email, in French, then sign in with the new one", async ({ page }) => {
  const email = uniqueEmail("reset");
  await signUpAndConfirm(page, email, "/fr");
  await signOut(page);
  await page.goto("/fr/reset-password");
  await page.locator('input[name="email"]').fill(email);
  await page.locator('form[method="post"] button[type="submit"]').click();
  await expect(page.getByRole("status")).toContainText(email);
  const link = await latestLink(page.request, email).then(async () => {
    // The newest link is the recovery one (the confirmation link was used already).
    const res = await page.request.get("/dev/mailbox.json");
    const mail = ((await res.json()) as { to: string; text: string }[]).find(
      (m) => m.to === email && m.text.includes("type=recovery"),
    );
    return mail?.text.match(/https?:\/\/\S+\/auth\/v1\/verify\?\S+/)?.[0] ?? "";
  });
  expect(link).toContain("type=recovery");
  await page.goto(link);
  await expect(page).toHaveURL(/\/fr\/update-password$/);
  await page.locator('input[name="password"]').fill("Brand-New-Pass-7");
  await page.locator('input[name="confirm"]').fill("Brand-New-Pass-7");
  await page.locator('form[method="post"] button[type="submit"]').click();
  await expect(page).toHaveURL(/\/fr\/dashboard$/);
  await signOut(page);
  await signIn(page, email, STRONG_PASSWORD, "/fr");
  await expect(page.getByRole("alert")).toHaveText(t("fr", "auth", "errors.invalid_credentials"));
  await signIn(page, email, "Brand-New-Pass-7", "/fr");
  await expect(page).toHaveURL(/\/fr\/dashboard$/);
});

test("enrol TOTP, sign out, and sign-in then asks for the code", async ({ page }) => {
  // Sign-up, enrolment, sign-out and a two-step sign-in: 30 s ran out once on a busy 2-core runner.
  test.setTimeout(60_000);
  const email = uniqueEmail("totp");
  await signUpAndConfirm(page, email);
  await page.goto("/settings");
  await page.locator('form:has(input[name="friendlyName"]) button[type="submit"]').click();
  const secret = (await page.getByTestId("totp-secret").textContent()) ?? "";
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);
  await page.locator('form:has(input[name="factorId"]) input[name="code"]').fill(totpCode(secret));
  await page.locator('form:has(input[name="factorId"]) button[type="submit"]').click();
  await expect(page.getByRole("status")).toHaveText(t("en", "app", "security.mfa.enabled"));
  await signOut(page);

  await signIn(page, email, STRONG_PASSWORD);
  await expect(page).toHaveURL(/\/login\?step=mfa/);
  // The code used at enrolment cannot be used again: take the next time step (accepted ±1 step).
  await page.locator('input[name="code"]').fill("000000");
  await page.locator('form[method="post"] button[type="submit"]').click();
  await expect(page.getByRole("alert")).toHaveText(t("en", "auth", "errors.mfa_verification_failed"));
  await page.locator('input[name="code"]').fill(totpCode(secret, 1));
  await page.locator('form[method="post"] button[type="submit"]').click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("a session revoked on the server shows the expiry toast and returns to sign-in", async ({ page, browser }) => {
  // A sign-up plus a second browser signing in: 30 s is tight on a busy 2-core runner.
  test.setTimeout(60_000);
  const email = uniqueEmail("revoked");
  await signUpAndConfirm(page, email);
  // Wait for the browser auth store to start (it loads after hydration).
  await page.waitForFunction(() => document.cookie.includes("sb-murmur-auth-token"));

  // Another browser signs in as the same user and ends every other session.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, email, STRONG_PASSWORD);
  await expect(otherPage).toHaveURL(/\/dashboard$/);
  await otherPage.goto("/settings");
  await otherPage.locator('form:has(input[value="sign-out-others"]) button').click();
  await expect(otherPage.getByRole("status")).toHaveText(t("en", "app", "security.sessions.done"));
  await other.close();

  // Returning to the tab re-checks the user (SPEC §4 Tab visibility → Session expiry).
  await page.evaluate(async () => {
    const set = (state: "hidden" | "visible") => {
      Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
      Object.defineProperty(document, "hidden", { configurable: true, get: () => state === "hidden" });
      document.dispatchEvent(new Event("visibilitychange"));
    };
    set("hidden");
    await new Promise((r) => setTimeout(r, 2100));
    set("visible");
  });
  await expect(page.getByText(t("en", "common", "toasts.sessionExpired"))).toBeVisible();
  await expect(page).toHaveURL(/\/login/, { timeout: 10_000 });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("sign up, confirm, sign out and sign in again with plain forms, in Spanish", async ({ page }) => {
    const email = uniqueEmail("nojs");
    await signUpAndConfirm(page, email, "/es");
    await signOut(page);
    await signIn(page, email, STRONG_PASSWORD, "/es");
    await expect(page).toHaveURL(/\/es\/dashboard$/);
  });

  test("request a password reset with a plain form", async ({ page }) => {
    await page.goto("/reset-password");
    await page.locator('input[name="email"]').fill(uniqueEmail("nojs-reset"));
    await page.locator('form[method="post"] button[type="submit"]').click();
    await expect(page.getByRole("status")).toBeVisible();
  });
});
