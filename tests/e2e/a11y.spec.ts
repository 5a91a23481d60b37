import AxeBuilder from "@axe-core/playwright";
import { type Browser, type BrowserContext, test as base, expect, type Page } from "@playwright/test";
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
  "/settings/speech",
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

type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;

// One page per test, so a retry on a busy runner repeats one page (seconds), not 30 scans (minutes),
// and the two workers share the pages evenly. The signed-in scans reuse one sign-up per worker and
// language (its cookies as storageState): the sign-up journey itself is proven in
// auth-journeys.spec.ts, here it only opens the pages.
const test = base.extend<object, { signedInState: (prefix: string) => Promise<StorageState> }>({
  signedInState: [
    async ({ browser }, use, workerInfo) => {
      const states = new Map<string, Promise<StorageState>>();
      await use((prefix) => {
        let state = states.get(prefix);
        if (!state) {
          state = signUp(browser, workerInfo.project.use.baseURL, prefix);
          states.set(prefix, state);
        }
        return state;
      });
    },
    { scope: "worker" },
  ],
});

async function signUp(browser: Browser, baseURL: string | undefined, prefix: string): Promise<StorageState> {
  const context = await browser.newContext({ baseURL });
  try {
    await signUpAndConfirm(await context.newPage(), uniqueEmail("axe"), prefix);
    return await context.storageState();
  } finally {
    await context.close();
  }
}

// A page alone took minutes to scan at a load average of 36 on 2 cores.
const PAGE_TIMEOUT_MS = 240_000;

for (const prefix of ["", "/fr", "/es"]) {
  test.describe(`public pages have no serious axe violations (${prefix || "/en"})`, () => {
    for (const path of PUBLIC_PAGES) {
      test(prefix + path, async ({ page }) => {
        test.setTimeout(PAGE_TIMEOUT_MS);
        expect(await scan(page, prefix + path)).toEqual([]);
      });
    }
  });

  test.describe(`signed-in pages have no serious axe violations (${prefix || "/en"})`, () => {
    // In order in one worker, which signs up once for them all (signed up in this language, as before).
    test.describe.configure({ mode: "default" });
    test.use({ storageState: async ({ signedInState }, use) => use(await signedInState(prefix)) });
    for (const path of APP_PAGES) {
      test(prefix + path, async ({ page }) => {
        test.setTimeout(PAGE_TIMEOUT_MS);
        expect(await scan(page, prefix + path)).toEqual([]);
        // The shared session still held: the page scanned was the app's, not the sign-in form.
        expect(new URL(page.url()).pathname).not.toMatch(/\/login$/);
      });
    }
  });
}
