import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { setCookies, waitForHydration } from "./helpers.ts";

const YEAR_S = 365 * 24 * 60 * 60;
const DAY_S = 24 * 60 * 60;

async function entry(request: APIRequestContext, url: string, headers: Record<string, string>) {
  const response = await request.get(url, { maxRedirects: 0, headers });
  expect(response.status(), url).toBeGreaterThanOrEqual(300);
  expect(response.status(), url).toBeLessThan(400);
  return response;
}

function expectLocaleCookie(cookies: string[], lang: string) {
  const cookie = cookies.find((c) => c.startsWith("i18n_redirected="));
  expect(cookie, `Set-Cookie for i18n_redirected in ${JSON.stringify(cookies)}`).toBeDefined();
  const parts = (cookie ?? "").split(";").map((p) => p.trim());
  expect(parts[0]).toBe(`i18n_redirected=${lang}`);
  expect(parts).toContainEqual("Path=/");
  expect(parts).toContainEqual(`Max-Age=${YEAR_S}`);
}

test.describe("entry redirects from /", () => {
  test("English visitor goes to /login and the choice is remembered", async ({ request }) => {
    const response = await entry(request, "/", { "Accept-Language": "en" });
    expect(response.headers().location).toBe("/login");
    expectLocaleCookie(setCookies(response), "en");
  });

  test("French Accept-Language goes to /fr/login", async ({ request }) => {
    const response = await entry(request, "/", { "Accept-Language": "fr-FR,fr;q=0.9" });
    expect(response.headers().location).toBe("/fr/login");
    expectLocaleCookie(setCookies(response), "fr");
  });

  test("Spanish Accept-Language goes to /es/login", async ({ request }) => {
    const response = await entry(request, "/", { "Accept-Language": "es" });
    expect(response.headers().location).toBe("/es/login");
    expectLocaleCookie(setCookies(response), "es");
  });

  test("a remembered choice wins over Accept-Language", async ({ request }) => {
    const response = await entry(request, "/", { "Accept-Language": "fr", Cookie: "i18n_redirected=es" });
    expect(response.headers().location).toBe("/es/login");
    for (const cookie of setCookies(response).filter((c) => c.startsWith("i18n_redirected="))) {
      expect(cookie).toMatch(/^i18n_redirected=es;/);
    }
  });

  test("a token goes to /update-password with the token", async ({ request }) => {
    const response = await entry(request, "/?token=abc", { "Accept-Language": "en" });
    expect(response.headers().location).toBe("/update-password?token=abc");
  });

  test("a recovery code goes to /update-password with its values", async ({ request }) => {
    const response = await entry(request, "/?code=xyz&type=recovery", { "Accept-Language": "en" });
    expect(response.headers().location).toBe("/update-password?code=xyz&type=recovery");
  });

  test("/fr goes to /fr/login", async ({ request }) => {
    const response = await entry(request, "/fr", { "Accept-Language": "en" });
    expect(response.headers().location).toBe("/fr/login");
  });

  test("/en/login is a permanent redirect to /login", async ({ request }) => {
    const response = await request.get("/en/login", { maxRedirects: 0 });
    expect(response.status()).toBe(301);
    expect(response.headers().location).toBe("/login");
  });

  test("/en/product keeps its query when redirected", async ({ request }) => {
    const response = await request.get("/en/product?x=1", { maxRedirects: 0 });
    expect(response.status()).toBe(301);
    expect(response.headers().location).toBe("/product?x=1");
  });
});

async function localeCookie(page: Page) {
  const cookies = await page.context().cookies();
  return cookies.find((c) => c.name === "i18n_redirected");
}

async function switchTo(page: Page, lang: string) {
  await waitForHydration(page);
  await page.locator(`nav.language-switcher a[data-locale="${lang}"]`).first().click();
}

test.describe("language switcher", () => {
  test("switching to French and back to English is remembered", async ({ page }) => {
    await page.goto("/login");
    await switchTo(page, "fr");
    await expect(page).toHaveURL("/fr/login");
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");

    const cookie = await localeCookie(page);
    expect(cookie?.value).toBe("fr");
    expect(cookie?.path).toBe("/");
    const expectedExpiry = Date.now() / 1000 + YEAR_S;
    expect(cookie?.expires ?? 0).toBeGreaterThan(expectedExpiry - 2 * DAY_S);
    expect(cookie?.expires ?? 0).toBeLessThan(expectedExpiry + 2 * DAY_S);

    await page.goto("/");
    await expect(page).toHaveURL("/fr/login");

    await page.goto("/fr/product");
    await switchTo(page, "en");
    await expect(page).toHaveURL("/product");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect.poll(async () => (await localeCookie(page))?.value).toBe("en");
  });

  test("/_lang rejects an unknown language", async ({ request }) => {
    const response = await request.get("/_lang?lng=de&redirectTo=/x", { maxRedirects: 0 });
    expect(response.status()).toBe(400);
    expect(response.headers()["content-type"]).toContain("application/json");
    expect(await response.json()).toMatchObject({ code: "invalid_language_request" });
  });

  test("/_lang rejects a redirect to another site", async ({ request }) => {
    const response = await request.get("/_lang?lng=fr&redirectTo=//evil.example", { maxRedirects: 0 });
    expect(response.status()).toBe(400);
    expect(response.headers().location).toBeUndefined();
  });
});
