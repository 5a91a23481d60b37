import { expect, test } from "@playwright/test";
import { waitForHydration } from "./helpers.ts";

test.beforeEach(async ({ page }) => {
  await page.goto("/login");
  await waitForHydration(page);
});

test("the navigation fallback banner is present but hidden", async ({ page }) => {
  const banner = page.getByTestId("navigation-fallback");
  await expect(banner).toHaveCount(1);
  await expect(banner).toBeHidden();
});

test("a recording toast appears and closes itself", async ({ page }) => {
  await page.evaluate(() =>
    window.dispatchEvent(new CustomEvent("murmur:recording-toast", { detail: { message: "Recording saved", duration: 1500 } })),
  );
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Recording saved" });
  await expect(toast).toBeVisible();
  await expect(toast).toHaveCount(0, { timeout: 4000 });
});

test("a failed navigation reveals the fallback banner", async ({ page }) => {
  await page.evaluate(() => window.dispatchEvent(new Event("murmur:navigation-failed")));
  const banner = page.getByTestId("navigation-fallback");
  await expect(banner).toBeVisible();
  await expect(banner).toContainText("Navigation issues detected");
  const links = banner.locator("a");
  await expect(links).toHaveCount(4);
  const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  expect(hrefs).toEqual(["/dashboard", "/transcribing", "/coding", "/settings"]);
});
