import { expect, type Locator, type Page, test } from "@playwright/test";
import { STRONG_PASSWORD, signUpAndConfirm, uniqueEmail } from "./auth-helpers.ts";
import { waitForHydration } from "./helpers.ts";

// Issue 11 "Proof": keyboard only, sign in → start a visit → open its note. Every stop is reached
// with Tab and used with Enter, Space or typing, and the focused control shows a visible ring.

/** Tabs forward until `target` has focus (failing after `max` presses), then checks the ring is drawn. */
async function tabTo(page: Page, target: Locator, max = 40): Promise<void> {
  for (let i = 0; i < max && !(await target.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press("Tab");
  }
  await expect(target).toBeFocused();
  const ring = await target.evaluate((el) => {
    const style = getComputedStyle(el);
    return {
      focusVisible: el.matches(":focus-visible"),
      outline: style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) > 0,
      shadow: style.boxShadow !== "none",
    };
  });
  expect(ring.focusVisible).toBe(true);
  expect(ring.outline || ring.shadow).toBe(true);
}

test("keyboard only: sign in, start a visit, open its note, with a visible focus ring at every stop", async ({ page }) => {
  const email = uniqueEmail("kbd-walk");
  await signUpAndConfirm(page, email);
  await page.context().clearCookies();

  await page.goto("/login");
  await waitForHydration(page);
  const form = page.locator('form:has(input[name="password"])');
  await tabTo(page, form.locator('input[name="email"]'));
  await page.keyboard.type(email);
  await tabTo(page, form.locator('input[name="password"]'));
  await page.keyboard.type(STRONG_PASSWORD);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/dashboard$/);
  await waitForHydration(page);

  await tabTo(page, page.getByTestId("start-visit-link"));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/transcribing$/);
  await waitForHydration(page);
  const start = page.getByTestId("start-visit");
  await tabTo(page, start.locator('input[name="new_patient_name"]'));
  await page.keyboard.type("John Smith");
  await tabTo(page, start.locator('input[name="consent"]'));
  await page.keyboard.press("Space");
  await expect(start.locator('input[name="consent"]')).toBeChecked();
  await tabTo(page, start.locator('button[type="submit"]'));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/transcribing\?visit_id=[0-9a-f-]{36}$/);

  // No microphone in the browser under test: the conversation arrives as an imported transcript.
  const visitId = new URL(page.url()).searchParams.get("visit_id") ?? "";
  const imported = await page.request.post(`/api/visits/${visitId}/transcript`, {
    data: { text: "[doctor] What brings you in?\n[patient] A cough for two weeks.\n[doctor] Your lungs are clear." },
  });
  expect(imported.status()).toBe(201);
  await page.reload();
  await waitForHydration(page);

  await tabTo(page, page.getByTestId("generate-submit"), 80);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/coding\?id=[0-9a-f-]{36}$/);
  await expect(page.getByTestId("note-editor")).toHaveAttribute("data-status", "draft", { timeout: 15_000 });
  await waitForHydration(page);
  await tabTo(page, page.getByTestId("note-save"), 120);
});
