import { type Browser, type BrowserContext, test as base, expect, type Page } from "@playwright/test";
import { signUpAndConfirm, uniqueEmail } from "./auth-helpers.ts";
import { axeViolations } from "./axe.ts";
import { AUTH_PAGES, MARKETING_PAGES, waitForReady } from "./helpers.ts";

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
      await waitForReady(page);
    } else {
      // The resize's layout and any media-query listener run before the next scan.
      await page.evaluate(
        () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
      );
    }
    const violations = await axeViolations(page);
    found.push(
      ...violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${url} @${width}: ${v.id} (${v.impact}) ${v.targets.join(", ")}`),
    );
    if (width === 360) {
      const overflow = await page.evaluate(() => document.body.scrollWidth - window.innerWidth);
      if (overflow > 0) found.push(`${url} @${width}: scrolls sideways by ${overflow}px`);
    }
  }
  return found;
}

type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;

// One test per page, so a retry on a busy runner repeats one page (seconds), not 30 scans (minutes),
// and the two workers share the pages evenly. Each worker keeps one browser page per language and
// session and navigates it from page to page (a new context and page per test cost more than the
// scan of a small page); every test still loads its URL afresh. A failed test restarts its worker,
// and with it these pages. The signed-in scans reuse one sign-up per worker and language (its
// cookies): the sign-up journey itself is proven in auth-journeys.spec.ts, here it only opens pages.
const test = base.extend<object, { scanPage: (prefix: string, signedIn: boolean) => Promise<Page> }>({
  scanPage: [
    async ({ browser }, use, workerInfo) => {
      const baseURL = workerInfo.project.use.baseURL;
      const pages = new Map<string, Promise<Page>>();
      const contexts: BrowserContext[] = [];
      const open = async (prefix: string, signedIn: boolean): Promise<Page> => {
        const storageState = signedIn ? await signUp(browser, baseURL, prefix) : undefined;
        const context = await browser.newContext({ baseURL, locale: "en-US", storageState });
        contexts.push(context);
        return context.newPage();
      };
      await use((prefix, signedIn) => {
        const key = `${prefix}|${signedIn}`;
        let page = pages.get(key);
        if (!page) {
          page = open(prefix, signedIn);
          pages.set(key, page);
        }
        return page;
      });
      for (const context of contexts) await context.close();
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
      test(prefix + path, async ({ scanPage }) => {
        test.setTimeout(PAGE_TIMEOUT_MS);
        expect(await scan(await scanPage(prefix, false), prefix + path)).toEqual([]);
      });
    }
  });

  test.describe(`signed-in pages have no serious axe violations (${prefix || "/en"})`, () => {
    // In order in one worker, which signs up once for them all (signed up in this language, as before).
    test.describe.configure({ mode: "default" });
    for (const path of APP_PAGES) {
      test(prefix + path, async ({ scanPage }) => {
        test.setTimeout(PAGE_TIMEOUT_MS);
        const page = await scanPage(prefix, true);
        expect(await scan(page, prefix + path)).toEqual([]);
        // The shared session still held: the page scanned was the app's, not the sign-in form.
        expect(new URL(page.url()).pathname).not.toMatch(/\/login$/);
      });
    }
  });
}

// The scanner itself: a page with known faults must come back with them, so an empty list above
// means "no violation", not "axe did not run" (it runs in the page, injected by axe.ts).
test("the axe scan reports a known violation", async ({ scanPage }) => {
  const page = await scanPage("", false);
  await page.setContent('<html lang="en"><body><main><img src="data:,"><button></button></main></body></html>');
  const ids = (await axeViolations(page)).map((v) => v.id);
  expect(ids).toEqual(expect.arrayContaining(["image-alt", "button-name"]));
});
