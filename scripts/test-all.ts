// Every test, in the order that fails fastest: translations, types, lint, build, Vitest (PGlite,
// and PostgreSQL too when DATABASE_URL is set), then Playwright in Chromium against the build.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

// JSON reports beside the console output, for the slowest-files table printed at the end.
const VITEST_JSON = "test-reports/vitest-files.json";
const PLAYWRIGHT_JSON = "test-reports/playwright.json";
fs.rmSync(VITEST_JSON, { force: true });
fs.rmSync(PLAYWRIGHT_JSON, { force: true });

const steps: [string, string[]][] = [
  ["i18n keys", ["node", "scripts/check-i18n.ts"]],
  ["typecheck", ["npx", "react-router", "typegen"]],
  ["typecheck", ["npx", "tsc"]],
  ["lint", ["npx", "biome", "check", "--diagnostic-level=error", "."]],
  ["dependency audit", ["node", "scripts/audit-deps.ts"]],
  ["build", ["npx", "react-router", "build"]],
  ["unit and database tests", ["npx", "vitest", "run", "--reporter=default", "--reporter=./tests/setup/file-times-reporter.ts"]],
  ["browser tests", ["npx", "playwright", "test", "--reporter=list,json"]],
];

const started = Date.now();
for (const [name, [cmd, ...args]] of steps) {
  const t0 = Date.now();
  console.log(`\n▶ ${name}: ${cmd} ${args.join(" ")}`);
  const env = { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: PLAYWRIGHT_JSON };
  const result = spawnSync(cmd as string, args, { stdio: "inherit", env });
  if (result.status !== 0) {
    printSlowest();
    console.error(`\n✗ ${name} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
  console.log(`✓ ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}
printSlowest();
console.log(`\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s.`);

function printSlowest(): void {
  spawnSync("node", ["scripts/slowest-tests.ts", VITEST_JSON, PLAYWRIGHT_JSON], { stdio: "inherit" });
}
