import { defineConfig } from "@playwright/test";
import base from "./playwright.config.ts";

// Screenshots of every page (issue 11 "Proof"), light and dark: `npm run screenshots` after a build.
// Same server and browser as the e2e suite; only the folder and time budget differ.
export default defineConfig({
  ...base,
  testDir: "tests/screenshots",
  testMatch: /.*\.spec\.ts/,
  timeout: 300_000,
  workers: 1,
});
