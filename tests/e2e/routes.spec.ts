import { expect, test } from "@playwright/test";
import {
  collectPageErrors,
  LANGS,
  MARKETING_PAGES,
  PRODUCT_NAME,
  PUBLIC_PAGES,
  SIGNED_IN_PAGES,
  t,
  waitForReady,
} from "./helpers.ts";

// Exact titles and descriptions fixed by the spec for the English sign-in journey.
const SPEC_META: Record<string, { title: string; description: string }> = {
  "/login": { title: `Sign In · ${PRODUCT_NAME}`, description: "Sign in to your account" },
  "/signup": { title: `Sign Up · ${PRODUCT_NAME}`, description: "Create your account and start your free trial" },
  "/accept-invite": { title: `Accept Invitation · ${PRODUCT_NAME}`, description: "Accept your organization invitation" },
};

// Issue 11: the product pages show a real screenshot of the app (public/product), sized and lazy.
const PRODUCT_SHOTS: Record<string, string> = { "/product": "dashboard", "/product/transcription": "transcribing" };

const TITLE_PATTERN = new RegExp(`^\\S.* · ${PRODUCT_NAME}$`);

for (const { lang, prefix } of LANGS) {
  for (const route of PUBLIC_PAGES) {
    const url = `${prefix}${route}`;

    test(`public page ${url} renders in ${lang}`, async ({ page }) => {
      const errors = collectPageErrors(page);
      const response = await page.goto(url);
      expect(response?.status()).toBe(200);
      await waitForReady(page);

      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      await expect(page).toHaveTitle(TITLE_PATTERN);
      await expect(page.locator("h1").first()).toBeVisible();

      const spec = SPEC_META[route];
      if (lang === "en" && spec) {
        await expect(page).toHaveTitle(spec.title);
        await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", spec.description);
      }
      if (lang === "fr" && route === "/login") await expect(page).toHaveTitle(`Connexion · ${PRODUCT_NAME}`);

      if ((MARKETING_PAGES as readonly string[]).includes(route)) {
        const sections = page.locator("article.marketing-article section").filter({ has: page.locator("h2") });
        expect(await sections.count(), "sections with an h2").toBeGreaterThanOrEqual(2);
      }
      const shotName = PRODUCT_SHOTS[route];
      if (shotName) {
        const shot = page.locator(".product-shot img");
        await expect(shot).toHaveAttribute("alt", t(lang, "ui", `productShots.${shotName}.alt`));
        await expect(shot).toHaveAttribute("loading", "lazy");
        await expect(shot).toHaveAttribute("width", /^\d+$/);
        await expect(shot).toHaveAttribute("height", /^\d+$/);
        await shot.scrollIntoViewIfNeeded();
        await expect.poll(() => shot.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1280);
      }
      if (route === "/pricing") await expect(page.locator("article.plan")).toHaveCount(4);

      expect(errors).toEqual([]);
    });
  }

  for (const route of SIGNED_IN_PAGES) {
    const url = `${prefix}${route}`;
    const login = `${prefix}/login?redirectTo=${encodeURIComponent(url)}`;

    test(`signed-in page ${url} sends anonymous visitors to ${lang} login`, async ({ request, page }) => {
      const response = await request.get(url, { maxRedirects: 0 });
      expect(response.status()).toBe(302);
      expect(response.headers().location).toBe(login);

      await page.goto(url);
      await expect(page).toHaveURL(login);
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      await expect(page.locator("h1").first()).toBeVisible();
    });
  }
}
