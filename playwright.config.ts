import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

// End-to-end suite: runs against the production build (`npx react-router build` first) served by
// server.ts with a throw-away embedded database. The browser is the system Chromium.
const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;

// The config is evaluated by the runner and again by every worker; only the runner starts the
// web server, so reuse one directory per run instead of leaving a new empty one per worker.
if (!process.env.E2E_MURMUR_DATA_DIR) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "murmur-e2e-"));
  process.env.E2E_MURMUR_DATA_DIR = dir;
  // The runner exits after stopping the web server: drop the throw-away database with it.
  process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
}
const dataDir = process.env.E2E_MURMUR_DATA_DIR;

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  fullyParallel: true,
  workers: 2,
  // One retry everywhere: CI is `npm test` on a busy 2-core runner, where a sign-up journey can miss
  // a 5 s wait; a retried pass is still reported as "flaky" in the list and JSON output.
  retries: 1,
  forbidOnly: !!process.env.CI,
  reporter: "list",
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL,
    browserName: "chromium",
    headless: true,
    locale: "en-US",
    trace: "off",
    screenshot: "off",
    video: "off",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    command: "node server.ts",
    url: `${baseURL}/readyz`,
    reuseExistingServer: false,
    timeout: 120_000,
    // The server logs every 4xx at warn level; set E2E_SERVER_LOGS=1 to see them.
    stdout: process.env.E2E_SERVER_LOGS ? "pipe" : "ignore",
    stderr: "pipe",
    env: {
      PORT: String(port),
      NODE_ENV: "production",
      MURMUR_DATA_DIR: dataDir,
      DATABASE_URL: "",
      LOG_LEVEL: "warn",
      // Email links must point at this server, and the journeys read them from the dev mailbox.
      SITE_URL: baseURL,
      MURMUR_DEV_MAILBOX: "1",
      // A production build ignores MURMUR_DEV_MAILBOX unless this test-only switch is set too
      // (docs/operations.md "Input limits and test-only settings"); never set it on a real server.
      MURMUR_E2E: "1",
      // Every journey signs up from 127.0.0.1: GoTrue's per-IP defaults (30 emails an hour) are
      // for the public internet, not for one test runner creating a hundred accounts.
      AUTH_RATE_LIMIT_EMAIL_SENT: "100000",
      AUTH_RATE_LIMIT_OTP: "100000",
      // Every sign-up also opens its confirmation link (/verify: 30 per 5 minutes per IP by default)
      // and refreshes tokens from the same address; a 4-minute suite does far more than that.
      AUTH_RATE_LIMIT_VERIFY: "100000",
      AUTH_RATE_LIMIT_TOKEN_REFRESH: "100000",
    },
  },
});
