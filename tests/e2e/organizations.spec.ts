import { expect, type Page, test } from "@playwright/test";
import { signOut, signUpAndConfirm, uniqueEmail } from "./auth-helpers.ts";
import { collectPageErrors, waitForHydration } from "./helpers.ts";

// Issue 4 "Proof": a new user has a personal organisation, creates a second one, switches between
// them from the header, and keeps the organisation across a language switch and reloads.

async function orgCookie(page: Page): Promise<string | undefined> {
  return (await page.context().cookies()).find((c) => c.name === "murmur-org")?.value;
}

async function switchTo(page: Page, name: string): Promise<void> {
  await page.getByTestId("org-switcher").locator("summary").click();
  await page
    .getByTestId("org-switcher")
    .getByRole("button", { name: new RegExp(name) })
    .click();
  await expect(page.getByTestId("current-org")).toHaveText(name);
}

async function createOrganisation(page: Page, name: string): Promise<void> {
  await page.getByTestId("org-switcher").locator("summary").click();
  await page.getByTestId("create-org-link").click();
  await page.locator('main input[name="name"]').fill(name);
  await page.locator('main form[method="post"] button[type="submit"]').click();
  await expect(page.getByTestId("current-org")).toHaveText(name);
}

test("sign up → personal organisation → create a second → switch → the language switch keeps it", async ({ page }) => {
  // Sign-up, two organisations, two switches and a language change: a long journey on a busy runner.
  test.setTimeout(60_000);
  const errors = collectPageErrors(page);
  await signUpAndConfirm(page, uniqueEmail("orgs"));
  const personalName = "Dr Ana Ruiz's practice";
  await expect(page.getByTestId("current-org")).toHaveText(personalName);
  const personalId = await orgCookie(page);
  expect(personalId).toMatch(/^[0-9a-f-]{36}$/);

  await createOrganisation(page, "Clinique Lumière");
  await expect(page).toHaveURL(/\/settings\/organization$/);
  const practiceId = await orgCookie(page);
  expect(practiceId).not.toBe(personalId);

  // Both organisations are listed with the user's role; the current one cannot be "switched to".
  await page.getByTestId("org-switcher").locator("summary").click();
  await expect(page.getByTestId("org-switcher").getByRole("button")).toHaveCount(2);
  await expect(page.getByTestId("org-switcher").locator(`button[data-org-id="${practiceId}"]`)).toBeDisabled();
  await page.getByTestId("org-switcher").locator("summary").click();

  await page.goto("/dashboard");
  await switchTo(page, personalName);
  expect(await orgCookie(page)).toBe(personalId);
  await expect(page).toHaveURL(/\/dashboard$/);
  await switchTo(page, "Clinique Lumière");

  await page.getByTestId("language-menu").locator("summary").click();
  await page.locator('.language-switcher a[data-locale="fr"]').click();
  await expect(page).toHaveURL(/\/fr\/dashboard$/);
  await expect(page.getByTestId("current-org")).toHaveText("Clinique Lumière");
  await page.reload();
  await expect(page.getByTestId("current-org")).toHaveText("Clinique Lumière");
  // The browser store mirrors the server's choice and tags API calls with it (SPEC §7).
  await waitForHydration(page);
  await expect.poll(() => page.evaluate(() => localStorage.getItem("murmur-org"))).toBe(practiceId);
  const current = await page.evaluate(async () => (await fetch("/api/orgs/current")).json());
  expect(current).toMatchObject({ id: practiceId, name: "Clinique Lumière", role: "owner", plan: "trial" });
  expect(errors).toEqual([]);
});

test("a deep link into another of my organisations switches with a notice; another tenant's is a 404", async ({
  page,
  browser,
}) => {
  // Two sign-ups and an organisation created in one journey: 30 s is tight on a busy 2-core runner.
  test.setTimeout(60_000);
  await signUpAndConfirm(page, uniqueEmail("deeplink"));
  const personalId = await orgCookie(page);
  await createOrganisation(page, "Cabinet Deux");
  const practiceId = await orgCookie(page);
  await page.goto("/dashboard");
  await switchTo(page, "Dr Ana Ruiz's practice");

  await page.goto(`/settings?org=${practiceId}`);
  await expect(page.getByTestId("org-switch-notice")).toContainText("Cabinet Deux");
  await expect(page.getByTestId("current-org")).toHaveText("Cabinet Deux");
  expect(await orgCookie(page)).toBe(practiceId);

  // Someone else cannot reach it, by deep link or by a forged cookie.
  const other = await browser.newContext();
  const stranger = await other.newPage();
  await signUpAndConfirm(stranger, uniqueEmail("stranger"));
  const response = await stranger.goto(`/dashboard?org=${practiceId}`);
  expect(response?.status()).toBe(404);
  await expect(stranger.locator("h1")).toContainText("Page Not Found");
  await other.addCookies([{ name: "murmur-org", value: practiceId ?? "", url: page.url() }]);
  await stranger.goto("/dashboard");
  await expect(stranger.getByTestId("current-org")).toHaveText("Dr Ana Ruiz's practice");
  expect((await other.cookies()).find((c) => c.name === "murmur-org")?.value).not.toBe(practiceId);
  expect(personalId).not.toBe(practiceId);
  await other.close();
});

test("sign-out forgets the organisation; the header fits at 360 px", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signUpAndConfirm(page, uniqueEmail("orgout"));
  await waitForHydration(page);
  await page.getByTestId("org-switcher").locator("summary").click();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const menu = await page.getByTestId("org-switcher").locator("ul").boundingBox();
  const summary = await page.getByTestId("org-switcher").locator("summary").boundingBox();
  expect({ menu, summary }).toMatchObject({ menu: { x: expect.any(Number) } });
  expect(menu && menu.x >= 0 && menu.x + menu.width <= 360, JSON.stringify({ menu, summary })).toBe(true);
  await page.getByTestId("org-switcher").locator("summary").click();
  await expect.poll(() => page.evaluate(() => localStorage.getItem("murmur-org"))).not.toBeNull();
  await signOut(page);
  expect(await orgCookie(page)).toBeUndefined();
  expect(await page.evaluate(() => localStorage.getItem("murmur-org"))).toBeNull();
});

test("the organisation menu opened while the page is still loading stays open once it hydrates", async ({ page }) => {
  await signUpAndConfirm(page, uniqueEmail("early-menu"));
  // Hold the page's scripts back so the click lands before hydration, as a quick hand does.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/assets/**/*.js", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/dashboard", { waitUntil: "domcontentloaded" });
  await page.getByTestId("org-switcher").locator("summary").click();
  await expect(page.getByTestId("create-org-link")).toBeVisible();
  release();
  await waitForHydration(page);
  await expect(page.getByTestId("create-org-link")).toBeVisible();
});
