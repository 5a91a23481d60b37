import fs from "node:fs";
import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";

// Writes each test file's full cost (start-up, import, hooks and tests) to
// test-reports/vitest-files.json; Vitest's JSON reporter leaves out imports and hooks, which are
// most of a database suite's time. scripts/slowest-tests.ts prints the table.
export default class FileTimesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const rows = testModules.map((m) => {
      const d = m.diagnostic();
      const ms = d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration;
      return { file: path.relative(process.cwd(), m.moduleId), seconds: ms / 1000, tests: [...m.children.allTests()].length };
    });
    fs.mkdirSync("test-reports", { recursive: true });
    fs.writeFileSync("test-reports/vitest-files.json", JSON.stringify(rows));
  }
}
