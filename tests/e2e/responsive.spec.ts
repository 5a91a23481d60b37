import { expect, type Page, test } from "@playwright/test";
import { waitForHydration } from "./helpers.ts";

const WIDTH = 360;
test.use({ viewport: { width: WIDTH, height: 740 } });

// app.css sets `overflow-x: hidden` on html and body, which pins documentElement.scrollWidth to
// the viewport; body.scrollWidth still shows content that would be cut off at the right edge.
async function scrollWidths(page: Page) {
  return page.evaluate(() => ({ html: document.documentElement.scrollWidth, body: document.body.scrollWidth }));
}

// SPEC: 360 px is the narrowest supported width; no page may scroll sideways there.
for (const url of ["/login", "/fr/product", "/pricing", "/es/about", "/privacy-policy", "/does-not-exist"]) {
  test(`${url} fits a ${WIDTH} px screen`, async ({ page }) => {
    await page.goto(url);
    await waitForHydration(page);
    const h1 = page.locator("h1").first();
    await expect(h1).toBeVisible();
    const widths = await scrollWidths(page);
    expect(widths.html).toBeLessThanOrEqual(WIDTH);
    expect(widths.body).toBeLessThanOrEqual(WIDTH);
    const box = await h1.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= WIDTH, `h1 box ${JSON.stringify(box)}`).toBe(true);
  });
}

for (const url of ["/fr/product", "/es/about"]) {
  test(`the narrow menu on ${url} opens within a ${WIDTH} px screen`, async ({ page }) => {
    await page.goto(url);
    await waitForHydration(page);
    await page.locator("details.site-nav-narrow > summary").click();
    const menu = page.locator("details.site-nav-narrow > ul");
    await expect(menu).toBeVisible();
    const box = await menu.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= WIDTH, `menu box ${JSON.stringify(box)}`).toBe(true);
    expect((await scrollWidths(page)).body).toBeLessThanOrEqual(WIDTH);
  });
}
