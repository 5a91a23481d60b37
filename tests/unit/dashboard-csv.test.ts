import { describe, expect, it } from "vitest";
import { csvField } from "#app/services/dashboard/csv.ts";
import { buildRange } from "#app/services/dashboard/range.ts";
import { resolveDays } from "#app/services/dashboard/schema.ts";

describe("dashboard CSV and ranges (issue 16)", () => {
  it("quotes fields and defuses spreadsheet formulas in names", () => {
    expect(csvField(3.5)).toBe("3.5");
    expect(csvField(null)).toBe("");
    expect(csvField('Dr "Ana", MD')).toBe('"Dr ""Ana"", MD"');
    expect(csvField("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvField("-2+3")).toBe("'-2+3");
  });

  it("cuts 23- and 25-hour days in the organisation's zone, and resolves presets from its today", () => {
    const spring = buildRange("2024-03-30", "2024-04-01", "Europe/Paris").days.map(
      (d) => (d.end.getTime() - d.start.getTime()) / 3_600_000,
    );
    expect(spring).toEqual([24, 23, 24]);
    const autumn = buildRange("2024-11-02", "2024-11-04", "America/New_York").days.map(
      (d) => (d.end.getTime() - d.start.getTime()) / 3_600_000,
    );
    expect(autumn).toEqual([24, 25, 24]);
    // 23:30 UTC on 31 March is already 1 April in Paris: the last 7 days end there.
    const now = new Date("2024-03-31T23:30:00Z");
    expect(resolveDays({ range: "7" }, "Europe/Paris", now)).toEqual({ from: "2024-03-26", to: "2024-04-01" });
    expect(resolveDays({ range: "7" }, "UTC", now)).toEqual({ from: "2024-03-25", to: "2024-03-31" });
    expect(resolveDays({ range: "7", from: "2024-01-01", to: "2024-01-02" }, "UTC", now)).toEqual({
      from: "2024-03-25",
      to: "2024-03-31",
    });
    expect(resolveDays({ from: "2024-03-01" }, "UTC", now)).toEqual({ from: "2024-03-01", to: "2024-03-31" });
    expect(resolveDays({ to: "2024-02-29" }, "UTC", now)).toEqual({ from: "2024-01-31", to: "2024-02-29" });
  });
});
