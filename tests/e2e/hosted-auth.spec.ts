import { expect, test } from "@playwright/test";
import { STRONG_PASSWORD, signIn, signOut, uniqueEmail } from "./auth-helpers.ts";
import { collectPageErrors } from "./helpers.ts";
import { generatedKeys, type ServerProcess, startServer } from "./server-process.ts";

// SUPABASE_URL switches Murmur to a hosted Supabase project with no code change. Here the "hosted
// project" is a second Murmur serving the same Supabase API, so the switch is exercised for real.
const PROVIDER_PORT = Number(process.env.E2E_PORT ?? 3100) + 20;
const APP_PORT = PROVIDER_PORT + 1;

let provider: ServerProcess;
let app: ServerProcess;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  // Two fresh servers migrate empty databases first: slow on a busy 2-core machine.
  test.setTimeout(120_000);
  provider = await startServer(PROVIDER_PORT, {
    SITE_URL: `http://127.0.0.1:${PROVIDER_PORT}`,
    AUTH_ADDITIONAL_REDIRECT_URLS: `http://127.0.0.1:${APP_PORT}/**`,
  });
  const keys = generatedKeys(provider.output());
  app = await startServer(APP_PORT, {
    SITE_URL: `http://127.0.0.1:${APP_PORT}`,
    SUPABASE_URL: provider.url,
    SUPABASE_ANON_KEY: keys.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: keys.serviceRoleKey,
  });
});

test.afterAll(async () => {
  await app?.stop();
  await provider?.stop();
});

test("with SUPABASE_URL set, sign-in, pages and sign-out go through the configured auth server", async ({ page, request }) => {
  const keys = generatedKeys(provider.output());
  const email = uniqueEmail("hosted");
  const created = await request.post(`${provider.url}/auth/v1/admin/users`, {
    headers: { Authorization: `Bearer ${keys.serviceRoleKey}`, apikey: keys.serviceRoleKey },
    data: { email, password: STRONG_PASSWORD, email_confirm: true },
  });
  expect(created.status()).toBe(200);

  const errors = collectPageErrors(page);
  const config = await (await request.get(`${app.url}/api/public-config`)).json();
  expect(config).toMatchObject({ supabaseUrl: provider.url, supabaseAnonKey: keys.anonKey });

  await signIn(page, email, STRONG_PASSWORD, app.url);
  await expect(page).toHaveURL(`${app.url}/dashboard`);
  await expect(page.locator("details.user-menu > summary")).toHaveText(email);
  // The browser's own supabase-js (a different origin from the app) reaches the provider too.
  await page.waitForLoadState("networkidle");
  expect(errors).toEqual([]);

  // The session lives at the provider: revoking it there closes the app's pages too.
  const cookies = await page.context().cookies(app.url);
  expect(cookies.some((c) => c.name.startsWith("sb-murmur-auth-token"))).toBe(true);
  await signOut(page);
  await page.goto(`${app.url}/dashboard`);
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard/);
});
