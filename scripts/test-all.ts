// Every test, in the order that fails fastest: translations, types, lint, build, Vitest (PGlite,
// and PostgreSQL too when DATABASE_URL is set), then Playwright in Chromium against the build.
import { spawnSync } from "node:child_process";

const steps: [string, string[]][] = [
  ["i18n keys", ["node", "scripts/check-i18n.ts"]],
  ["typecheck", ["npx", "react-router", "typegen"]],
  ["typecheck", ["npx", "tsc"]],
  ["lint", ["npx", "biome", "check", "--diagnostic-level=error", "."]],
  ["build", ["npx", "react-router", "build"]],
  ["unit and database tests", ["npx", "vitest", "run"]],
  ["browser tests", ["npx", "playwright", "test"]],
];

const started = Date.now();
for (const [name, [cmd, ...args]] of steps) {
  const t0 = Date.now();
  console.log(`\n▶ ${name}: ${cmd} ${args.join(" ")}`);
  const result = spawnSync(cmd as string, args, { stdio: "inherit", env: process.env });
  if (result.status !== 0) {
    console.error(`\n✗ ${name} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
  console.log(`✓ ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}
console.log(`\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
