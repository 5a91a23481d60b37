import fs from "node:fs";
import path from "node:path";
import { type Page, test } from "@playwright/test";
import { signUpAndConfirm, uniqueEmail } from "../e2e/auth-helpers.ts";
import { waitForHydration } from "../e2e/helpers.ts";

// Issue 11 "Proof": refreshes docs/screenshots/ — every page, light and dark at 1280 px, light at
// 360 px, and the dashboard in French and Spanish. `npm run screenshots` (after a build).
// SCREENSHOTS_ONLY=/settings,/pricing refreshes just those pages; SCREENSHOTS_DIR and
// SCREENSHOTS_TYPE=png write elsewhere (for looking at a page, fr/es included, without committing).
const OUT = path.resolve(process.env.SCREENSHOTS_DIR ?? "docs/screenshots");
const TYPE = process.env.SCREENSHOTS_TYPE === "png" ? "png" : "jpeg";
const ONLY = process.env.SCREENSHOTS_ONLY?.split(",").filter(Boolean);
const bare = (url: string) => url.replace(/^\/(fr|es)(?=\/|$)/, "") || "/";
const PUBLIC_PAGES = ["/login", "/signup", "/reset-password", "/pricing", "/product", "/product/transcription", "/about"];
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
  "/dev/ui",
  "/does-not-exist",
];

function fileName(url: string, variant: string): string {
  const slug = url.replace(/^\//, "").replace(/[/?=&]+/g, "-") || "home";
  return path.join(OUT, `${slug}.${variant}.${TYPE === "png" ? "png" : "jpg"}`);
}

async function shoot(page: Page, url: string): Promise<void> {
  for (const [variant, width, scheme] of [
    ["light", 1280, "light"],
    ["dark", 1280, "dark"],
    ["light-360", 360, "light"],
  ] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height: width === 360 ? 780 : 860 });
    await page.goto(url);
    await waitForHydration(page);
    await page.screenshot({
      path: fileName(url, variant),
      type: TYPE,
      ...(TYPE === "jpeg" ? { quality: 70 } : {}),
      fullPage: width !== 360,
    });
  }
}

test("every page, light and dark", async ({ page }) => {
  fs.mkdirSync(OUT, { recursive: true });
  if (ONLY) {
    // Public pages before signing up, every other one after.
    for (const url of ONLY) if (PUBLIC_PAGES.includes(bare(url))) await shoot(page, url);
    await signUpAndConfirm(page, uniqueEmail("screens"));
    for (const url of ONLY) if (!PUBLIC_PAGES.includes(bare(url)) && url !== "/command-palette") await shoot(page, url);
    if (!ONLY.includes("/command-palette")) return;
  } else {
    for (const url of PUBLIC_PAGES) await shoot(page, url);
    await signUpAndConfirm(page, uniqueEmail("screens"));
    for (const url of APP_PAGES) await shoot(page, url);
    for (const url of ["/fr/dashboard", "/es/dashboard"]) await shoot(page, url);
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto("/dashboard");
  await waitForHydration(page);
  await page.keyboard.press("Control+k");
  await page.getByRole("dialog").waitFor();
  await page.screenshot({ path: fileName("/command-palette", "light"), type: TYPE, ...(TYPE === "jpeg" ? { quality: 70 } : {}) });
});
