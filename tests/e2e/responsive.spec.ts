import { expect, test } from "@playwright/test";
import { waitForHydration } from "./helpers.ts";

const WIDTH = 360;
test.use({ viewport: { width: WIDTH, height: 740 } });

// SPEC: 360 px is the narrowest supported width; no page may scroll sideways there.
for (const url of ["/login", "/fr/product", "/pricing", "/es/about", "/privacy-policy", "/does-not-exist"]) {
  test(`${url} fits a ${WIDTH} px screen`, async ({ page }) => {
    await page.goto(url);
    await waitForHydration(page);
    await expect(page.locator("h1").first()).toBeVisible();
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(WIDTH);
    const h1 = await page.locator("h1").first().boundingBox();
    expect(h1 && h1.x >= 0 && h1.x + h1.width <= WIDTH, `h1 box ${JSON.stringify(h1)}`).toBe(true);
  });
}
