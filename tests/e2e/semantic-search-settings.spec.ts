import { expect, test } from "@playwright/test";
import { signUpAndConfirm, uniqueEmail } from "./auth-helpers.ts";
import { t } from "./helpers.ts";

// Issue 12 "Re-embedding … with progress": the owner's section on Settings → Organisation renders
// on the server and fits 360 px. The e2e server has no EMBEDDINGS_*, so it shows the "off" state;
// the configured states (progress, last error, Start/Resume) are covered in
// tests/rag/embeddings-settings.test.ts.
test("an owner sees Ask Murmur's meaning-search section in French, within 360 px", async ({ page }) => {
  await signUpAndConfirm(page, uniqueEmail("semantic"));
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/fr/settings/organization");
  const section = page.getByTestId("semantic-search");
  await expect(section).toBeVisible();
  await expect(page.getByRole("heading", { name: t("fr", "orgSettings", "semanticSearch.heading") })).toBeVisible();
  await expect(page.getByTestId("semantic-search-off")).toHaveText(t("fr", "orgSettings", "semanticSearch.off"));
  await expect(page.getByTestId("semantic-search-start")).toHaveCount(0);
  expect(await page.evaluate(() => document.body.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
});
