// Comparison between two exams (issue 14 "comparison with any earlier exam"): per-site change of
// PD and CAL; a change of 2 mm or more is clinically meaningful (beyond probing error) and is
// highlighted as worse (deeper / more attachment lost) or better.

import { calOf, getTooth, type PerioChartData } from "./model.ts";
import { SITES, type Site, UNIVERSAL_TEETH } from "./teeth.ts";

export const SIGNIFICANT_CHANGE_MM = 2;

export type SiteChange = {
  tooth: number;
  site: Site;
  pdBefore: number | null;
  pdAfter: number | null;
  pdDelta: number | null;
  calBefore: number | null;
  calAfter: number | null;
  calDelta: number | null;
  status: "worse" | "better" | "stable" | "unknown";
};

export type ExamComparison = { sites: SiteChange[]; worse: number; better: number; stable: number };

function delta(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : b - a;
}

/** `before` is the earlier exam, `after` the later one; teeth missing in either are left out. */
export function compareCharts(before: PerioChartData, after: PerioChartData): ExamComparison {
  const sites: SiteChange[] = [];
  let worse = 0;
  let better = 0;
  let stable = 0;
  for (const t of UNIVERSAL_TEETH) {
    const a = getTooth(before, t);
    const b = getTooth(after, t);
    if (a.missing || b.missing) continue;
    for (const s of SITES) {
      const pdDelta = delta(a.sites[s].pd, b.sites[s].pd);
      const calBefore = calOf(a.sites[s]);
      const calAfter = calOf(b.sites[s]);
      const calDelta = delta(calBefore, calAfter);
      // Attachment is the better measure of progression; PD stands in when GM was not recorded.
      const d = calDelta ?? pdDelta;
      let status: SiteChange["status"] = "unknown";
      if (d !== null) status = d >= SIGNIFICANT_CHANGE_MM ? "worse" : d <= -SIGNIFICANT_CHANGE_MM ? "better" : "stable";
      if (status === "worse") worse++;
      else if (status === "better") better++;
      else if (status === "stable") stable++;
      sites.push({
        tooth: t,
        site: s,
        pdBefore: a.sites[s].pd,
        pdAfter: b.sites[s].pd,
        pdDelta,
        calBefore,
        calAfter,
        calDelta,
        status,
      });
    }
  }
  return { sites, worse, better, stable };
}
