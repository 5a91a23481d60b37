import { describe, expect, it } from "vitest";
import { applyChanges, chartWarnings } from "#app/services/perio/changes.ts";
import { compareCharts } from "#app/services/perio/compare.ts";
import { calOf, copyForward, emptyChart, type PerioChartData, toApiTeeth } from "#app/services/perio/model.ts";
import { buildPath, nextToothStop, STANDARD_PATH } from "#app/services/perio/path.ts";
import { summarize } from "#app/services/perio/summary.ts";
import { fdiToUniversal, furcationSites, toothLabel, universalToFdi } from "#app/services/perio/teeth.ts";

function chartWith(edits: Parameters<typeof applyChanges>[1]): PerioChartData {
  const r = applyChanges(emptyChart(), edits);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.chart;
}

describe("numbering", () => {
  it("maps Universal to FDI and back for all 32 teeth", () => {
    expect([1, 8, 9, 16, 17, 24, 25, 32].map(universalToFdi)).toEqual([18, 11, 21, 28, 38, 31, 41, 48]);
    for (let t = 1; t <= 32; t++) expect(fdiToUniversal(universalToFdi(t))).toBe(t);
    expect(fdiToUniversal(19)).toBeNull();
    expect(fdiToUniversal(51)).toBeNull();
    expect(toothLabel(3, "fdi")).toBe("16");
  });
  it("puts furcations on molars and upper first premolars only", () => {
    expect(furcationSites(3)).toEqual(["B", "ML", "DL"]);
    expect(furcationSites(5)).toEqual(["ML", "DL"]);
    expect(furcationSites(20)).toEqual([]);
    expect(furcationSites(30)).toEqual(["B", "L"]);
    expect(furcationSites(8)).toEqual([]);
  });
});

describe("CAL = PD + GM", () => {
  it("adds recession and subtracts hyperplasia; unknown without GM", () => {
    const c = chartWith([
      { tooth: 3, site: "MB", field: "pd", value: 4 },
      { tooth: 3, site: "MB", field: "gm", value: 2 },
      { tooth: 3, site: "B", field: "pd", value: 5 },
      { tooth: 3, site: "B", field: "gm", value: -2 },
      { tooth: 3, site: "DB", field: "pd", value: 3 },
    ]);
    const t3 = toApiTeeth(c)[2];
    expect(t3?.fdi).toBe(16);
    expect(t3?.sites.MB.cal).toBe(6);
    expect(t3?.sites.B.cal).toBe(3);
    expect(t3?.sites.DB.cal).toBeNull();
    expect(calOf({ pd: 0, gm: 0, bop: false, suppuration: false, plaque: false, calculus: false })).toBe(0);
  });
});

describe("range checks", () => {
  it("rejects out-of-range values with stable codes, all or nothing", () => {
    const r = applyChanges(emptyChart(), [
      { tooth: 3, site: "B", field: "pd", value: 4 },
      { tooth: 3, site: "B", field: "pd", value: 16 },
      { tooth: 3, site: "B", field: "gm", value: -6 },
      { tooth: 3, site: "B", field: "pd", value: 2.5 },
      { tooth: 33, site: "B", field: "pd", value: 2 },
      { tooth: 3, site: "X" as "B", field: "pd", value: 2 },
      { tooth: 3, field: "pd", value: 2 },
      { tooth: 3, field: "mobility", value: 4 },
      { tooth: 8, site: "B", field: "furcation", value: 2 },
      { tooth: 3, site: "B", field: "furcation", value: 4 },
      { tooth: 3, field: "colour" as "pd", value: 1 },
    ]);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => [e.index, e.code])).toEqual([
      [1, "pd_out_of_range"],
      [2, "gm_out_of_range"],
      [3, "pd_out_of_range"],
      [4, "invalid_tooth"],
      [5, "invalid_site"],
      [6, "site_required"],
      [7, "mobility_out_of_range"],
      [8, "furcation_not_applicable"],
      [9, "furcation_out_of_range"],
      [10, "invalid_field"],
    ]);
  });
  it("accepts the range ends and refuses data on missing teeth and furcations on implants", () => {
    expect(
      applyChanges(emptyChart(), [
        { tooth: 1, site: "DB", field: "pd", value: 15 },
        { tooth: 1, site: "DB", field: "gm", value: -5 },
        { tooth: 1, site: "MB", field: "gm", value: 15 },
        { tooth: 1, site: "MB", field: "pd", value: 0 },
      ]).ok,
    ).toBe(true);
    const missing = chartWith([{ tooth: 2, field: "missing", value: true }]);
    const r = applyChanges(missing, [{ tooth: 2, site: "B", field: "pd", value: 3 }]);
    expect(r.ok ? null : r.errors[0]?.code).toBe("tooth_missing");
    const implant = chartWith([{ tooth: 3, field: "implant", value: true }]);
    const r2 = applyChanges(implant, [{ tooth: 3, site: "B", field: "furcation", value: 1 }]);
    expect(r2.ok ? null : r2.errors[0]?.code).toBe("implant_no_furcation");
  });
  it("flags impossible combinations without blocking them", () => {
    const c = chartWith([
      { tooth: 9, site: "B", field: "pd", value: 2 },
      { tooth: 9, site: "B", field: "gm", value: -4 },
      { tooth: 10, site: "L", field: "bop", value: true },
      { tooth: 11, field: "implant", value: true },
      { tooth: 11, field: "mobility", value: 1 },
    ]);
    expect(chartWarnings(c)).toEqual([
      { code: "cal_negative", tooth: 9, site: "B" },
      { code: "bop_without_pd", tooth: 10, site: "L" },
      { code: "implant_mobility", tooth: 11 },
    ]);
  });
});

describe("auto-advance path", () => {
  it("follows upper facial 1→16, upper lingual 16→1, lower lingual 17→32, lower facial 32→17", () => {
    const path = buildPath();
    expect(path).toHaveLength(192);
    const label = (i: number) => `${path[i]?.tooth}${path[i]?.site}`;
    expect([0, 1, 2, 3].map(label)).toEqual(["1DB", "1B", "1MB", "2DB"]);
    // Crossing the upper midline: 8 distal→mesial, then 9 mesial→distal.
    expect([21, 22, 23, 24, 25, 26].map(label)).toEqual(["8DB", "8B", "8MB", "9MB", "9B", "9DB"]);
    expect([45, 46, 47, 48].map(label)).toEqual(["16MB", "16B", "16DB", "16DL"]);
    expect([93, 94, 95, 96].map(label)).toEqual(["1MB".replace("B", "L"), "1L", "1DL", "17DL"]);
    expect([189, 190, 191].map(label)).toEqual(["17MB", "17B", "17DB"]);
  });
  it("skips missing teeth in both numberings and jumps to the next tooth", () => {
    const c = chartWith([
      { tooth: 1, field: "missing", value: true },
      { tooth: 16, field: "missing", value: true },
    ]);
    const path = buildPath(STANDARD_PATH, c);
    expect(path).toHaveLength(180);
    expect(path[0]).toEqual({ tooth: 2, site: "DB" });
    expect(path.some((p) => p.tooth === 16 || p.tooth === 1)).toBe(false);
    // In FDI the same path starts at 17 (the 18 is missing) and turns at 27.
    expect(toothLabel(path[0]?.tooth ?? 0, "fdi")).toBe("17");
    expect(toothLabel(path[41]?.tooth ?? 0, "fdi")).toBe("27");
    expect(toothLabel(path[42]?.tooth ?? 0, "fdi")).toBe("27");
    expect(path[42]?.site).toBe("DL");
    expect(nextToothStop(path, { tooth: 2, site: "B" })).toEqual({ tooth: 3, site: "DB" });
  });
});

describe("summary and comparison", () => {
  const before = chartWith([
    { tooth: 3, site: "MB", field: "pd", value: 3 },
    { tooth: 3, site: "MB", field: "gm", value: 0 },
    { tooth: 3, site: "B", field: "pd", value: 2 },
    { tooth: 3, site: "B", field: "gm", value: 0 },
    { tooth: 3, site: "DB", field: "pd", value: 6 },
    { tooth: 3, site: "DB", field: "bop", value: true },
    { tooth: 4, field: "missing", value: true },
  ]);
  it("counts sites, bleeding and deep pockets over teeth present", () => {
    const s = summarize(before);
    expect(s.teethPresent).toBe(31);
    expect(s.sitesMeasured).toBe(3);
    expect(s.bopSites).toBe(1);
    expect(s.bopPercent).toBe(0.5); // 1 of 186 sites
    expect([s.pd4, s.pd5, s.pd6]).toEqual([1, 1, 1]);
    expect(s.meanPd).toBe(3.7);
    expect(s.meanCal).toBe(2.5);
  });
  it("marks a 2 mm change as worse or better, and copy-forward keeps teeth and margins", () => {
    const next = copyForward(before);
    expect(next.teeth["4"]?.missing).toBe(true);
    expect(next.teeth["3"]?.sites.MB.gm).toBe(0);
    expect(next.teeth["3"]?.sites.MB.pd).toBeNull();
    const after = applyChanges(next, [
      { tooth: 3, site: "MB", field: "pd", value: 5 },
      { tooth: 3, site: "B", field: "pd", value: 3 },
      { tooth: 3, site: "DB", field: "pd", value: 4 },
    ]);
    if (!after.ok) throw new Error("invalid");
    const cmp = compareCharts(before, after.chart);
    const byId = Object.fromEntries(cmp.sites.filter((x) => x.tooth === 3).map((x) => [x.site, x]));
    expect(byId.MB?.status).toBe("worse");
    expect(byId.MB?.calDelta).toBe(2);
    expect(byId.B?.status).toBe("stable");
    expect(byId.DB?.status).toBe("better"); // PD stands in when GM is not recorded
    expect([cmp.worse, cmp.better, cmp.stable]).toEqual([1, 1, 1]);
    expect(cmp.sites.some((x) => x.tooth === 4)).toBe(false);
  });
});
