import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { signUpAndConfirm, uniqueEmail } from "./auth-helpers.ts";
import { LANGS, t, waitForHydration } from "./helpers.ts";

// Issue 15 "Per-organisation vocabulary" (ADR 0032): the owner's word list on Settings →
// Organisation, server-rendered, in en/fr/es, at 1280 and 360 px, axe clean; a bad line gets the
// translated 400 message, a good list is saved and shown again.
for (const { lang, prefix } of LANGS) {
  test(`an owner edits the speech vocabulary (${lang})`, async ({ page }) => {
    await signUpAndConfirm(page, uniqueEmail(`vocab-${lang}`), prefix);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${prefix}/settings/organization`);
    await waitForHydration(page);
    const section = page.getByTestId("speech-vocabulary");
    await expect(page.getByRole("heading", { name: t(lang, "orgSettings", "vocabulary.heading") })).toBeVisible();
    await expect(page.getByTestId("vocabulary-refreshed")).toHaveText(t(lang, "orgSettings", "vocabulary.neverRefreshed"));

    const box = page.getByLabel(t(lang, "orgSettings", "vocabulary.label"));
    await box.fill("Zenvaxor\n<b>bold</b>");
    await page.getByTestId("vocabulary-save").click();
    await expect(section.getByRole("alert")).toHaveText(t(lang, "orgSettings", "errors.vocabulary_invalid_term"));

    await box.fill("Zenvaxor\nTromadexil\nOkafor");
    await page.getByTestId("vocabulary-save").click();
    await expect(section.getByRole("status")).toHaveText(t(lang, "orgSettings", "vocabulary.saved"));
    await page.reload();
    await expect(page.getByLabel(t(lang, "orgSettings", "vocabulary.label"))).toHaveValue("Zenvaxor\nTromadexil\nOkafor");

    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 900 });
      await section.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/vocabulary-${lang}-${width}.png`, fullPage: false });
      const results = await new AxeBuilder({ page })
        .include("[data-testid='speech-vocabulary']")
        .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
        .analyze();
      expect(results.violations.map((v) => `${v.id} @${width}`)).toEqual([]);
      if (width === 360) expect(await page.evaluate(() => document.body.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    }
  });
}
