import { expect, test } from "@playwright/test";
import { collectPageErrors, decodeHtml, expectNoStackTrace, type Lang, t, waitForHydration } from "./helpers.ts";

// Unknown paths render the not-found page in the URL's language; an unknown prefix is English.
const NOT_FOUND: { path: string; lang: Lang }[] = [
  { path: "/does-not-exist", lang: "en" },
  { path: "/fr/does-not-exist", lang: "fr" },
  { path: "/es/does/not/exist", lang: "es" },
  { path: "/zz/login", lang: "en" },
  { path: "/de", lang: "en" },
];

for (const { path, lang } of NOT_FOUND) {
  test(`${path} is a ${lang} 404 page`, async ({ page, request }) => {
    const raw = await request.get(path);
    expect(raw.status()).toBe(404);
    const html = await raw.text();
    expectNoStackTrace(html);
    expect(decodeHtml(html)).toContain(t(lang, "errors", "notFound.unmatched").replace("{{path}}", path));

    const errors = collectPageErrors(page);
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await waitForHydration(page);
    await expect(page.locator("html")).toHaveAttribute("lang", lang);
    expect(await page.title()).toMatch(new RegExp(`^${t(lang, "errors", "notFound.title")}\\b`));
    await expect(page.getByTestId("error-message")).toHaveText(t(lang, "errors", "notFound.unmatched").replace("{{path}}", path));
    await expect(page.locator("h1")).toBeVisible();
    // The document itself is a 404, which Chromium reports as a console error; nothing else may fail.
    expect(errors.filter((e) => !/status of 404/.test(e))).toEqual([]);
  });
}

test("the English 404 message is exactly 'Page not found: {path}'", async ({ page }) => {
  await page.goto("/does-not-exist");
  await expect(page.getByTestId("error-message")).toHaveText("Page not found: /does-not-exist");
  await expect(page).toHaveTitle(/^Page Not Found/);
});
