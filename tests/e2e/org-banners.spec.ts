import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type APIRequest, expect, type Page, test } from "@playwright/test";
import { createPglite } from "../../app/db/pglite.server.ts";
import { signUpAndConfirm, uniqueEmail } from "./auth-helpers.ts";
import { waitForHydration } from "./helpers.ts";
import { type ServerProcess, startServer } from "./server-process.ts";

// Issue 4 "Plans and trial" and SPEC §2 "Global UI": the practice-management banner (shown for
// MacPractice unless the plan is Clinic, dismissed per organisation) and the trial-ended banner.

interface OrgRow {
  id: string;
  plan: string;
  pms: string;
}

/**
 * Calls the API with the page's session cookie from a fresh request context: page.request keeps
 * idle sockets the server may close under it (keep-alive), and a PATCH is not retried.
 */
async function withApi<T>(
  page: Page,
  request: APIRequest,
  baseURL: string,
  fn: (api: Page["request"]) => Promise<T>,
): Promise<T> {
  const api = await request.newContext({ baseURL, storageState: await page.context().storageState() });
  try {
    return await fn(api);
  } finally {
    await api.dispose();
  }
}

/** The signed-in user's first organisation (their personal one). */
function personalOrg(page: Page, request: APIRequest, baseURL: string): Promise<OrgRow> {
  return withApi(page, request, baseURL, async (api) => {
    const res = await api.get("/api/orgs");
    expect(res.status()).toBe(200);
    const [org] = (await res.json()) as OrgRow[];
    if (!org) throw new Error("no organisation");
    return org;
  });
}

function patchOrg(page: Page, request: APIRequest, baseURL: string, id: string, body: Record<string, string>): Promise<void> {
  return withApi(page, request, baseURL, async (api) => {
    const res = await api.patch(`/api/orgs/${id}`, { data: body });
    expect(res.status(), await res.text()).toBe(200);
  });
}

test("PMS banner: shown for MacPractice, dismissal remembered per organisation, hidden on the Clinic plan", async ({
  page,
  playwright,
  baseURL,
}) => {
  // A sign-up, three plan/PMS changes and six page loads: past 30 s on a busy runner.
  test.setTimeout(60_000);
  const base = baseURL ?? "";
  await signUpAndConfirm(page, uniqueEmail("pms-banner"));
  const org = await personalOrg(page, playwright.request, base);
  const patch = (body: Record<string, string>) => patchOrg(page, playwright.request, base, org.id, body);
  const banner = page.getByTestId("pms-banner");

  await waitForHydration(page);
  await expect(banner).toHaveCount(0);

  await patch({ pms: "macpractice" });
  await page.reload();
  await expect(banner).toBeVisible();
  await expect(banner).toContainText("Murmur now works with MacPractice");
  await expect(banner.getByTestId("pms-banner-video")).toHaveAttribute("href", "/product");
  await expect(banner.getByTestId("pms-banner-book-call")).toHaveAttribute("href", "/contact");

  await banner.getByTestId("pms-banner-dismiss").click();
  await expect(banner).toHaveCount(0);
  expect(await page.evaluate((id) => localStorage.getItem(`murmur-pms-banner-dismissed:${id}`), org.id)).toBe("1");
  await page.reload();
  await waitForHydration(page);
  await expect(banner).toHaveCount(0);
  // The same dismissal does not hide it in another language.
  await page.goto("/fr/dashboard");
  await waitForHydration(page);
  await expect(banner).toHaveCount(0);

  // Not dismissed any more: only the Clinic plan hides it now.
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await expect(banner).toBeVisible();
  await expect(banner).toContainText("Murmur fonctionne désormais avec MacPractice");
  await patch({ plan: "Clinic" });
  await page.reload();
  await waitForHydration(page);
  await expect(banner).toHaveCount(0);
  await patch({ plan: "solo" });
  await page.reload();
  await expect(banner).toBeVisible();
});

test.describe("trial ended", () => {
  // Its own server and embedded database, which the test edits while that server is stopped
  // (only one process can hold an embedded database): no API may move a trial's end.
  // +20/+21 hosted-auth, +30/+31 two-instances.
  const port = Number(process.env.E2E_PORT ?? 3100) + 40;
  const baseURL = `http://127.0.0.1:${port}`;
  const env = (dir: string) => ({ MURMUR_DATA_DIR: dir, SITE_URL: baseURL, MURMUR_DEV_MAILBOX: "1", LOG_LEVEL: "warn" });
  let dataDir = "";
  let server: ServerProcess | null = null;

  test.use({ baseURL });

  test.beforeAll(async () => {
    // A fresh server migrates an empty database first: slow on a busy 2-core machine.
    test.setTimeout(120_000);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "murmur-e2e-trial-"));
    server = await startServer(port, env(dataDir));
  });

  test.afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("a trial that ended shows the banner; the owner chooses a plan and it goes away", async ({ page, playwright }) => {
    test.setTimeout(120_000);
    await signUpAndConfirm(page, uniqueEmail("trial-ended"));
    const org = await personalOrg(page, playwright.request, baseURL);
    await expect(page.getByTestId("trial-days-left")).toContainText("14");
    await expect(page.getByTestId("trial-ended-banner")).toHaveCount(0);

    await server?.stop();
    server = null;
    const db = await createPglite({ dataDir: path.join(dataDir, "pglite") });
    await db.query("update public.organizations set trial_ends_at = now() - interval '1 minute' where id = $1", [org.id]);
    await db.close();
    server = await startServer(port, env(dataDir));

    await page.reload();
    const banner = page.getByTestId("trial-ended-banner");
    await expect(banner).toBeVisible();
    await expect(banner).toContainText("has ended. Choose a plan to keep recording visits");
    await page.getByTestId("trial-choose-plan").click();
    await expect(page).toHaveURL(/\/settings\/billing$/);
    await expect(page.getByTestId("current-plan")).toContainText("Your trial has ended");

    await page.locator('article.plan[data-plan="solo"] button[type="submit"]').click();
    await expect(page.locator('[role="status"][data-notice="changed"]')).toContainText("Your plan is now Solo.");
    await expect(page.getByTestId("current-plan")).toHaveAttribute("data-plan", "solo");
    await expect(banner).toHaveCount(0);
    await expect(page.getByTestId("trial-days-left")).toHaveCount(0);
  });
});
