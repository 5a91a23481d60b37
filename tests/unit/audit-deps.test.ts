import { describe, expect, it } from "vitest";
import { type AuditReport, blockingFindings } from "../../scripts/audit-deps.ts";

// npm audit --json (v7+ report shape), cut down to what the check reads.
const REPORT: AuditReport = {
  vulnerabilities: {
    "left-pad": {
      severity: "critical",
      via: [
        {
          source: 1,
          title: "Prototype pollution",
          url: "https://github.com/advisories/GHSA-aaaa-bbbb-cccc",
          severity: "critical",
        },
      ],
    },
    express: { severity: "high", via: ["body-parser"] },
    "body-parser": {
      severity: "high",
      via: [
        { source: 2, title: "Denial of service", url: "https://github.com/advisories/GHSA-dddd-eeee-ffff", severity: "high" },
      ],
    },
    chalk: {
      severity: "moderate",
      via: [{ source: 3, title: "Minor", url: "https://github.com/advisories/GHSA-gggg-hhhh-iiii", severity: "moderate" }],
    },
  },
};

describe("dependency audit allow-list", () => {
  it("blocks high and critical advisories, once each, and ignores moderate ones", () => {
    expect(blockingFindings(REPORT, [], "2026-11-25").map((f) => f.package)).toEqual(["left-pad", "body-parser"]);
  });

  it("an entry with a reason accepts its advisory until its end date only", () => {
    const allow = [
      {
        advisory: "GHSA-dddd-eeee-ffff",
        package: "body-parser",
        reason: "not reachable: no urlencoded parser",
        until: "2026-12-31",
      },
    ];
    expect(blockingFindings(REPORT, allow, "2026-11-25").map((f) => f.package)).toEqual(["left-pad"]);
    expect(blockingFindings(REPORT, allow, "2027-01-01").map((f) => f.package)).toEqual(["left-pad", "body-parser"]);
    // The same advisory id on another package does not count.
    expect(blockingFindings(REPORT, [{ ...allow[0], package: "express" } as never], "2026-11-25")).toHaveLength(2);
  });
});
