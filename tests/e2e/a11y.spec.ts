import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { signUpAndConfirm, uniqueEmail } from "./auth-helpers.ts";
import { AUTH_PAGES, MARKETING_PAGES, waitForHydration } from "./helpers.ts";

// Issue 11 "Proof": an axe-core scan of the pages on the design system, in en/fr/es at 1280 and
// 360 px, with no serious or critical violation, and nothing scrolling sideways at 360 px.
// /test-real-audio is scanned signed in, where it shows its real form (anonymous: a sign-in prompt).
// Every public page (issue 11 "every page in en/fr/es"): the auth pages, pricing, each marketing
// page and the 404 page.
const PUBLIC_PAGES = [...AUTH_PAGES, "/pricing", ...MARKETING_PAGES, "/does-not-exist"];
const APP_PAGES = [
  "/dashboard",
  "/transcribing",
  "/coding",
  "/records-qa",
  "/periodontal-chart",
  "/custom-templates",
  "/settings",
  "/settings/organization",
  "/settings/members",
  "/settings/invitations",
  "/settings/audit",
  "/settings/billing",
  "/organizations/new",
  "/test-upload",
  "/test-real-audio",
  "/dev/ui",
];
const WIDTHS = [1280, 360];

/** One load per page, scanned at each width in turn: the layout is CSS, so a resize is enough. */
async function scan(page: Page, url: string): Promise<string[]> {
  const found: string[] = [];
  for (const [i, width] of WIDTHS.entries()) {
    await page.setViewportSize({ width, height: 800 });
    if (i === 0) {
      await page.goto(url);
      await waitForHydration(page);
    }
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    found.push(
      ...results.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${url} @${width}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    );
    if (width === 360) {
      const overflow = await page.evaluate(() => document.body.scrollWidth - window.innerWidth);
      if (overflow > 0) found.push(`${url} @${width}: scrolls sideways by ${overflow}px`);
    }
  }
  return found;
}

for (const prefix of ["", "/fr", "/es"]) {
  test(`public pages have no serious axe violations (${prefix || "/en"})`, async ({ page }) => {
    // 14 pages × 2 widths; axe alone took minutes per page at a load average of 36 on 2 cores.
    test.setTimeout(600_000);
    const problems: string[] = [];
    for (const path of PUBLIC_PAGES) problems.push(...(await scan(page, prefix + path)));
    expect(problems).toEqual([]);
  });

  test(`signed-in pages have no serious axe violations (${prefix || "/en"})`, async ({ page }) => {
    test.setTimeout(720_000);
    await signUpAndConfirm(page, uniqueEmail("axe"), prefix);
    const problems: string[] = [];
    for (const path of APP_PAGES) problems.push(...(await scan(page, prefix + path)));
    expect(problems).toEqual([]);
  });
}
