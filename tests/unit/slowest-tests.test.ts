import { describe, expect, it } from "vitest";
import { playwrightFileTimes, slowestTable } from "../../scripts/slowest-tests.ts";

describe("slowest test files table", () => {
  it("ranks files by time; Playwright files by summed test time, retries included", () => {
    const vitest = [
      { file: "tests/a.test.ts", seconds: 3.5, tests: 2 },
      { file: "tests/b.test.ts", seconds: 12, tests: 1 },
    ];
    const playwright = playwrightFileTimes({
      suites: [
        {
          suites: [
            {
              specs: [
                { file: "x.spec.ts", tests: [{ results: [{ duration: 30_000 }, { duration: 10_000 }] }] },
                { file: "y.spec.ts", tests: [{ results: [{ duration: 2_000 }] }] },
              ],
            },
          ],
        },
      ],
    });
    expect(playwright).toEqual([
      { file: "tests/e2e/x.spec.ts", seconds: 40, tests: 1 },
      { file: "tests/e2e/y.spec.ts", seconds: 2, tests: 1 },
    ]);
    const table = slowestTable("Vitest", vitest, 1).split("\n");
    expect(table[0]).toBe("Vitest — slowest 1 of 2 files (16 s in all):");
    expect(table[1]).toContain("tests/b.test.ts");
    expect(table).toHaveLength(2);
  });
});
