// Prints the slowest test files of the last Vitest and Playwright runs (JSON reports written by
// scripts/test-all.ts), so every CI log shows where its time goes (issue 17 "CI that stays fast").
import fs from "node:fs";

export interface FileTime {
  file: string;
  seconds: number;
  tests: number;
}

interface PlaywrightSuite {
  file?: string;
  suites?: PlaywrightSuite[];
  specs?: { file: string; tests: { results: { duration: number }[] }[] }[];
}

/** Summed test durations (retries included) per Playwright spec file. */
export function playwrightFileTimes(report: { suites?: PlaywrightSuite[] }): FileTime[] {
  const byFile = new Map<string, FileTime>();
  const walk = (suite: PlaywrightSuite) => {
    for (const spec of suite.specs ?? []) {
      const entry = byFile.get(spec.file) ?? { file: `tests/e2e/${spec.file}`, seconds: 0, tests: 0 };
      for (const t of spec.tests) {
        entry.tests += 1;
        for (const r of t.results) entry.seconds += r.duration / 1000;
      }
      byFile.set(spec.file, entry);
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  return [...byFile.values()];
}

export function slowestTable(title: string, times: FileTime[], count = 10): string {
  const rows = [...times].sort((a, b) => b.seconds - a.seconds).slice(0, count);
  const total = times.reduce((sum, t) => sum + t.seconds, 0);
  const lines = rows.map((r) => `  ${r.seconds.toFixed(1).padStart(7)} s  ${String(r.tests).padStart(4)} tests  ${r.file}`);
  return [`${title} — slowest ${rows.length} of ${times.length} files (${total.toFixed(0)} s in all):`, ...lines].join("\n");
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [vitestFile = "test-reports/vitest-files.json", playwrightFile = "test-reports/playwright.json"] = process.argv.slice(2);
  // Written by tests/setup/file-times-reporter.ts.
  const vitest = readJson(vitestFile) as FileTime[] | null;
  const playwright = readJson(playwrightFile) as { suites?: PlaywrightSuite[] } | null;
  if (vitest) console.log(`\n${slowestTable("Vitest", vitest)}`);
  if (playwright) console.log(`\n${slowestTable("Playwright (test time summed per file)", playwrightFileTimes(playwright))}`);
}
