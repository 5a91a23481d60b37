// The periodontal exam as plain data (issue 14 "The chart"): what is stored in perio_exams.data
// and what the API returns per tooth. Gingival margin (GM) is signed: recession positive (margin
// apical to the CEJ), hyperplasia negative; clinical attachment level CAL = PD + GM.

import { SITES, type Site, UNIVERSAL_TEETH, universalToFdi } from "./teeth.ts";

export const SITE_FLAGS = ["bop", "suppuration", "plaque", "calculus"] as const;
export type SiteFlag = (typeof SITE_FLAGS)[number];

export type SiteRecord = {
  pd: number | null;
  gm: number | null;
  bop: boolean;
  suppuration: boolean;
  plaque: boolean;
  calculus: boolean;
};

export type FurcationGrade = 1 | 2 | 3;

export type ToothRecord = {
  missing: boolean;
  implant: boolean;
  mobility: number | null;
  furcation: Partial<Record<Site, FurcationGrade>>;
  note: string | null;
  sites: Record<Site, SiteRecord>;
};

/** Keyed by Universal number as a string (JSON object keys). */
export type PerioChartData = { teeth: Record<string, ToothRecord> };

export function emptySite(): SiteRecord {
  return { pd: null, gm: null, bop: false, suppuration: false, plaque: false, calculus: false };
}

export function emptyTooth(): ToothRecord {
  const sites = {} as Record<Site, SiteRecord>;
  for (const s of SITES) sites[s] = emptySite();
  return { missing: false, implant: false, mobility: null, furcation: {}, note: null, sites };
}

export function emptyChart(): PerioChartData {
  const teeth: Record<string, ToothRecord> = {};
  for (const t of UNIVERSAL_TEETH) teeth[String(t)] = emptyTooth();
  return { teeth };
}

export function getTooth(chart: PerioChartData, tooth: number): ToothRecord {
  return chart.teeth[String(tooth)] ?? emptyTooth();
}

/** CAL is known only when both PD and GM were recorded: a blank GM is "not measured", not 0. */
export function calOf(site: SiteRecord): number | null {
  return site.pd === null || site.gm === null ? null : site.pd + site.gm;
}

/**
 * Copy forward (issue 14 "copy forward from the last exam"): which teeth are missing or implants,
 * mobility, furcations and the gingival margins carry over; probing depths and bleeding/plaque are
 * measured again at every exam, so they start blank.
 */
export function copyForward(previous: PerioChartData): PerioChartData {
  const next = emptyChart();
  for (const t of UNIVERSAL_TEETH) {
    const old = getTooth(previous, t);
    const tooth = next.teeth[String(t)] as ToothRecord;
    tooth.missing = old.missing;
    tooth.implant = old.implant;
    tooth.mobility = old.mobility;
    tooth.furcation = { ...old.furcation };
    for (const s of SITES) tooth.sites[s].gm = old.sites[s]?.gm ?? null;
  }
  return next;
}

export type ApiSite = SiteRecord & { cal: number | null };
export type ApiTooth = Omit<ToothRecord, "sites"> & { tooth: number; fdi: number; sites: Record<Site, ApiSite> };

/** The per-tooth shape of GET /api/perio-exams/:id (docs/api.md). */
export function toApiTeeth(chart: PerioChartData): ApiTooth[] {
  return UNIVERSAL_TEETH.map((t) => {
    const rec = getTooth(chart, t);
    const sites = {} as Record<Site, ApiSite>;
    for (const s of SITES) sites[s] = { ...rec.sites[s], cal: calOf(rec.sites[s]) };
    return { tooth: t, fdi: universalToFdi(t), ...rec, sites };
  });
}
