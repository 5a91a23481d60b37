import { randomBytes, randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { STRONG_PASSWORD, signUpAndConfirm, uniqueEmail } from "./auth-helpers.ts";
import { generatedKeys, type ServerProcess, startServer } from "./server-process.ts";

// Issue 4 "Proof": servers are stateless — two instances on different ports sharing one PostgreSQL
// serve the same user consistently (sessions, tokens, organisations, the current organisation).
// Needs a server PostgreSQL (DATABASE_URL, as CI provides); it creates and drops its own database.
const serverUrl = process.env.DATABASE_URL;
const BASE = Number(process.env.E2E_PORT ?? 3100) + 30;

let a: ServerProcess;
let b: ServerProcess;
let dbName = "";
let sharedUrl = "";

test.describe.configure({ mode: "serial" });
test.skip(!serverUrl, "needs DATABASE_URL (a server PostgreSQL); .ci/run provides one");

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dbName = `murmur_two_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
  await admin((c) => c.query(`create database ${dbName}`));
  const url = new URL(serverUrl ?? "");
  url.pathname = `/${dbName}`;
  sharedUrl = url.toString();
  // Started together: migrations and the first auth keys are taken under advisory locks. Like
  // replicas behind one load balancer they share the public address (SITE_URL, the tokens' issuer).
  const site = `http://127.0.0.1:${BASE}`;
  // Production on a shared PostgreSQL needs the deployment's secret key, the same on both (issue 17).
  const secretKey = randomBytes(32).toString("base64");
  const start = (port: number) =>
    startServer(port, { DATABASE_URL: sharedUrl, SITE_URL: site, MURMUR_DEV_MAILBOX: "1", MURMUR_SECRET_KEY: secretKey });
  [a, b] = await Promise.all([start(BASE), start(BASE + 1)]);
});

test.afterAll(async () => {
  await a?.stop();
  await b?.stop();
  if (dbName) await admin((c) => c.query(`drop database if exists ${dbName} with (force)`));
});

test("a session, its tokens and the current organisation work the same on either instance", async ({ page, request }) => {
  const email = uniqueEmail("twin");
  // Sign up and confirm on A; the email sits in the shared database's outbox.
  await signUpAndConfirm(page, email, a.url);
  await expect(page.getByTestId("current-org")).toHaveText("Dr Ana Ruiz's practice");

  // B serves the same signed-in user (the cookies of 127.0.0.1 are sent to both ports).
  await page.goto(`${b.url}/dashboard`);
  await expect(page).toHaveURL(`${b.url}/dashboard`);
  await expect(page.locator("details.user-menu > summary")).toHaveText(email);
  await expect(page.getByTestId("current-org")).toHaveText("Dr Ana Ruiz's practice");

  // An organisation created on B is listed and switchable on A.
  await page.goto(`${b.url}/organizations/new`);
  await page.locator('main input[name="name"]').fill("Twin Practice");
  await page.locator('main form[method="post"] button[type="submit"]').click();
  await expect(page.getByTestId("current-org")).toHaveText("Twin Practice");
  await page.goto(`${a.url}/dashboard`);
  await expect(page.getByTestId("current-org")).toHaveText("Twin Practice");
  await page.getByTestId("org-switcher").locator("summary").click();
  await expect(page.getByTestId("org-switcher").getByRole("button")).toHaveCount(2);

  // Tokens: issued by A, accepted by B; refreshed on B, accepted by A; signed out on B, refused by A.
  const keys = generatedKeys(a.output() + b.output());
  const apikey = { apikey: keys.anonKey };
  const signIn = await request.post(`${a.url}/auth/v1/token?grant_type=password`, {
    headers: apikey,
    data: { email, password: STRONG_PASSWORD },
  });
  expect(signIn.status()).toBe(200);
  const session = (await signIn.json()) as { access_token: string; refresh_token: string };
  const orgsOnB = await request.get(`${b.url}/api/orgs`, { headers: { authorization: `Bearer ${session.access_token}` } });
  expect(((await orgsOnB.json()) as { name: string }[]).map((o) => o.name).sort()).toEqual([
    "Dr Ana Ruiz's practice",
    "Twin Practice",
  ]);
  const refreshed = await request.post(`${b.url}/auth/v1/token?grant_type=refresh_token`, {
    headers: apikey,
    data: { refresh_token: session.refresh_token },
  });
  expect(refreshed.status()).toBe(200);
  const next = (await refreshed.json()) as { access_token: string; refresh_token: string };
  const userOnA = await request.get(`${a.url}/auth/v1/user`, {
    headers: { ...apikey, authorization: `Bearer ${next.access_token}` },
  });
  expect(((await userOnA.json()) as { email: string }).email).toBe(email);
  const logout = await request.post(`${b.url}/auth/v1/logout?scope=local`, {
    headers: { ...apikey, authorization: `Bearer ${next.access_token}` },
  });
  expect(logout.status()).toBe(204);
  const afterLogout = await request.get(`${a.url}/api/orgs`, { headers: { authorization: `Bearer ${next.access_token}` } });
  expect(afterLogout.status()).toBe(401);
});
