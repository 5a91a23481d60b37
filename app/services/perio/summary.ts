// Chart summary (issue 14 "Display"): bleeding sites and %, counts of deep pockets, mean PD and
// CAL, teeth present. Denominators are the measured sites of teeth present (not missing).

import { calOf, getTooth, type PerioChartData } from "./model.ts";
import { SITES, UNIVERSAL_TEETH } from "./teeth.ts";

export type PerioSummary = {
  teethPresent: number;
  implants: number;
  sitesMeasured: number;
  bopSites: number;
  bopPercent: number | null;
  plaqueSites: number;
  plaquePercent: number | null;
  suppurationSites: number;
  pd4: number;
  pd5: number;
  pd6: number;
  meanPd: number | null;
  meanCal: number | null;
  maxPd: number | null;
  maxCal: number | null;
};

const round1 = (n: number) => Math.round(n * 10) / 10;

export function summarize(chart: PerioChartData): PerioSummary {
  let teethPresent = 0;
  let implants = 0;
  let sitesMeasured = 0;
  let bopSites = 0;
  let plaqueSites = 0;
  let suppurationSites = 0;
  let pd4 = 0;
  let pd5 = 0;
  let pd6 = 0;
  let pdSum = 0;
  let calSum = 0;
  let calCount = 0;
  let maxPd: number | null = null;
  let maxCal: number | null = null;
  for (const t of UNIVERSAL_TEETH) {
    const tooth = getTooth(chart, t);
    if (tooth.missing) continue;
    teethPresent++;
    if (tooth.implant) implants++;
    for (const s of SITES) {
      const site = tooth.sites[s];
      if (site.bop) bopSites++;
      if (site.plaque) plaqueSites++;
      if (site.suppuration) suppurationSites++;
      if (site.pd === null) continue;
      sitesMeasured++;
      pdSum += site.pd;
      if (site.pd >= 4) pd4++;
      if (site.pd >= 5) pd5++;
      if (site.pd >= 6) pd6++;
      maxPd = Math.max(maxPd ?? 0, site.pd);
      const cal = calOf(site);
      if (cal !== null) {
        calSum += cal;
        calCount++;
        maxCal = Math.max(maxCal ?? Number.NEGATIVE_INFINITY, cal);
      }
    }
  }
  // Bleeding and plaque are scored over every site of the teeth present (a site probed without
  // bleeding is a "no"), the way a full-mouth bleeding score is reported.
  const allSites = teethPresent * SITES.length;
  return {
    teethPresent,
    implants,
    sitesMeasured,
    bopSites,
    bopPercent: sitesMeasured > 0 ? round1((bopSites / allSites) * 100) : null,
    plaqueSites,
    plaquePercent: sitesMeasured > 0 ? round1((plaqueSites / allSites) * 100) : null,
    suppurationSites,
    pd4,
    pd5,
    pd6,
    meanPd: sitesMeasured > 0 ? round1(pdSum / sitesMeasured) : null,
    meanCal: calCount > 0 ? round1(calSum / calCount) : null,
    maxPd,
    maxCal,
  };
}
