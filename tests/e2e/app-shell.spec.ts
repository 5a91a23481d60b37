import { expect, test } from "@playwright/test";
import { signUpAndConfirm, uniqueEmail } from "./auth-helpers.ts";
import { t, waitForHydration } from "./helpers.ts";

// Issue 11: the signed-in shell — command palette, keyboard-only walk, drawer, collapsed sidebar.

test("⌘K / Ctrl+K opens the palette; a patient and an action are reached by keyboard", async ({ page }) => {
  await signUpAndConfirm(page, uniqueEmail("palette"));
  await page.getByTestId("new-patient").evaluate((form) => form.closest("details")?.setAttribute("open", ""));
  await page.getByTestId("new-patient").locator('input[name="display_name"]').fill("Amara Okonkwo");
  await page.getByTestId("new-patient").locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/created=/);
  await waitForHydration(page);

  await page.keyboard.press("Control+k");
  const palette = page.getByRole("dialog");
  await expect(palette).toBeVisible();
  await page.keyboard.type("okonk");
  await expect(palette.getByRole("option", { name: /Amara Okonkwo/ })).toBeVisible();
  await page.keyboard.press("Enter");
  // Issue 29: a patient result opens the patient's page.
  await expect(page).toHaveURL(/\/patients\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Amara Okonkwo");
  await expect(palette).toBeHidden();

  await page.getByTestId("command-palette-button").click();
  await page.keyboard.type(t("en", "common", "palette.actions.startVisit"));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/transcribing$/);
});

test("keyboard only: the first-run checklist, then the sidebar, reach a visit and the notes", async ({ page }) => {
  await signUpAndConfirm(page, uniqueEmail("keys"), "/fr");
  await waitForHydration(page);
  await expect(page.getByTestId("first-run")).toBeVisible();
  await expect(page.getByTestId("first-run-patient")).toHaveAttribute("data-done", "false");
  // Skip link first, then the sidebar's sections.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: t("fr", "common", "shell.skipToContent") })).toBeFocused();
  const start = page.getByTestId("start-visit-link");
  for (let i = 0; i < 40 && !(await start.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(start).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/fr\/transcribing$/);
  const notes = page.locator("#app-sidebar").getByRole("link", { name: t("fr", "common", "nav.coding") });
  await notes.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/fr\/coding$/);
});

test("below 768 px the sections open in a drawer; the collapsed sidebar is remembered", async ({ page }) => {
  await signUpAndConfirm(page, uniqueEmail("drawer"));
  await page.setViewportSize({ width: 360, height: 740 });
  await waitForHydration(page);
  await expect(page.locator("#app-sidebar")).toBeHidden();
  await page.getByTestId("shell-menu-button").click();
  const drawer = page.getByRole("dialog");
  await expect(drawer.getByRole("link", { name: "Transcribing" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  expect(await page.evaluate(() => document.body.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByTestId("sidebar-toggle").click();
  await expect(page.locator(".shell")).toHaveAttribute("data-sidebar", "collapsed");
  await page.reload();
  await expect(page.locator(".shell")).toHaveAttribute("data-sidebar", "collapsed");
  await expect(page.locator("#app-sidebar").getByRole("link", { name: "Settings" })).toBeVisible();
});

test("an owner's accent colour reaches every signed-in page from the server; an unreadable one is refused", async ({ page }) => {
  await signUpAndConfirm(page, uniqueEmail("accent"));
  await page.goto("/settings/organization");
  const save = page.getByRole("button", { name: t("en", "orgSettings", "organization.save") });
  // White text on pale yellow is 1.6:1: refused, with the reason, and nothing changes.
  await page.getByTestId("accent-color").fill("#ffd43b");
  await save.click();
  await expect(page.locator('[role="alert"][data-code="accent_low_contrast"]')).toHaveText(
    t("en", "ui", "settingsErrors.accent_low_contrast"),
  );
  await page.getByTestId("accent-color").fill("#0b7285");
  await save.click();
  await expect(page.locator('.form-done[role="status"]')).toHaveText(t("en", "orgSettings", "organization.saved"));
  // Another page, loaded fresh: its primary action is drawn in the practice's colour before any script runs.
  await page.goto("/dashboard");
  await expect(page.getByTestId("start-visit-link")).toHaveCSS("background-color", "rgb(11, 114, 133)");
});
