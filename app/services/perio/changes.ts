import { isStorableText } from "#app/utils/storable-text.ts";
// Applying edits to a chart with range checks (issue 14: PD 0–15, GM −5…15, mobility 0–3,
// furcation I–III only at furcation sites). Each rejected change carries a stable code the UI
// translates (perio.json "errors.*") and the API returns as-is.

import { type FurcationGrade, getTooth, type PerioChartData, SITE_FLAGS, type SiteFlag, type ToothRecord } from "./model.ts";
import { furcationSites, isUniversalTooth, SITES, type Site } from "./teeth.ts";

export const PD_MIN = 0;
export const PD_MAX = 15;
export const GM_MIN = -5;
export const GM_MAX = 15;
export const MOBILITY_MAX = 3;
export const NOTE_MAX = 500;

export const TOOTH_FIELDS = ["missing", "implant", "mobility", "furcation", "note"] as const;
export const SITE_FIELDS = ["pd", "gm", ...SITE_FLAGS] as const;
export type ChangeField = (typeof TOOTH_FIELDS)[number] | (typeof SITE_FIELDS)[number];

export type PerioChange = { tooth: number; site?: Site | null; field: ChangeField; value: unknown };

export type ChangeErrorCode =
  | "invalid_tooth"
  | "invalid_site"
  | "invalid_field"
  | "site_required"
  | "pd_out_of_range"
  | "gm_out_of_range"
  | "mobility_out_of_range"
  | "furcation_out_of_range"
  | "furcation_not_applicable"
  | "implant_no_furcation"
  | "tooth_missing"
  | "invalid_value"
  | "note_too_long"
  | "invalid_text";

export type ChangeError = { index: number; code: ChangeErrorCode; tooth: unknown; site?: unknown; field: unknown };

function isSite(s: unknown): s is Site {
  return typeof s === "string" && (SITES as readonly string[]).includes(s);
}

function intOrNull(value: unknown, min: number, max: number): number | null | undefined {
  if (value === null) return null;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) return undefined;
  return value;
}

function cloneTooth(t: ToothRecord): ToothRecord {
  const sites = {} as ToothRecord["sites"];
  for (const s of SITES) sites[s] = { ...t.sites[s] };
  return { ...t, furcation: { ...t.furcation }, sites };
}

/** Checks one change against the tooth as it stands; returns the new tooth or an error code. */
function applyOne(tooth: ToothRecord, toothNo: number, c: PerioChange): ToothRecord | ChangeErrorCode {
  const next = cloneTooth(tooth);
  const field = c.field as string;
  const siteField = (SITE_FIELDS as readonly string[]).includes(field);
  // Recording a measurement on a missing tooth is a slip of the cursor, not data.
  if (next.missing && field !== "missing" && field !== "note" && c.value !== null && c.value !== false) return "tooth_missing";
  if (siteField || field === "furcation") {
    if (c.site === undefined || c.site === null) return "site_required";
    if (!isSite(c.site)) return "invalid_site";
  }
  const site = c.site as Site;
  switch (field) {
    case "pd": {
      const v = intOrNull(c.value, PD_MIN, PD_MAX);
      if (v === undefined) return "pd_out_of_range";
      next.sites[site].pd = v;
      return next;
    }
    case "gm": {
      const v = intOrNull(c.value, GM_MIN, GM_MAX);
      if (v === undefined) return "gm_out_of_range";
      next.sites[site].gm = v;
      return next;
    }
    case "mobility": {
      const v = intOrNull(c.value, 0, MOBILITY_MAX);
      if (v === undefined) return "mobility_out_of_range";
      next.mobility = v;
      return next;
    }
    case "furcation": {
      const v = intOrNull(c.value, 1, 3);
      if (v === undefined) return "furcation_out_of_range";
      if (v !== null && next.implant) return "implant_no_furcation";
      if (v !== null && !furcationSites(toothNo).includes(site)) return "furcation_not_applicable";
      if (v === null) delete next.furcation[site];
      else next.furcation[site] = v as FurcationGrade;
      return next;
    }
    case "missing":
    case "implant": {
      if (typeof c.value !== "boolean") return "invalid_value";
      next[field] = c.value;
      // An implant has no furcation; a missing tooth keeps no measurements.
      if (field === "implant" && c.value) next.furcation = {};
      if (field === "missing" && c.value) {
        next.implant = false;
        next.mobility = null;
        next.furcation = {};
        for (const s of SITES)
          next.sites[s] = { pd: null, gm: null, bop: false, suppuration: false, plaque: false, calculus: false };
      }
      return next;
    }
    case "note": {
      if (c.value !== null && typeof c.value !== "string") return "invalid_value";
      if (typeof c.value === "string" && c.value.length > NOTE_MAX) return "note_too_long";
      // NUL or a lone surrogate cannot be stored (jsonb): a 500 before (issue 25).
      if (typeof c.value === "string" && !isStorableText(c.value)) return "invalid_text";
      next.note = c.value === "" ? null : (c.value as string | null);
      return next;
    }
    default:
      if ((SITE_FLAGS as readonly string[]).includes(field)) {
        if (typeof c.value !== "boolean") return "invalid_value";
        next.sites[site][field as SiteFlag] = c.value;
        return next;
      }
      return "invalid_field";
  }
}

/** All-or-nothing: either every change is valid and the new chart is returned, or the errors. */
export function applyChanges(
  chart: PerioChartData,
  changes: readonly PerioChange[],
): { ok: true; chart: PerioChartData } | { ok: false; errors: ChangeError[] } {
  const teeth = { ...chart.teeth };
  const errors: ChangeError[] = [];
  changes.forEach((c, index) => {
    if (!isUniversalTooth(c.tooth)) {
      errors.push({ index, code: "invalid_tooth", tooth: c.tooth, site: c.site, field: c.field });
      return;
    }
    const key = String(c.tooth);
    const result = applyOne(teeth[key] ?? getTooth(chart, c.tooth), c.tooth, c);
    if (typeof result === "string") errors.push({ index, code: result, tooth: c.tooth, site: c.site, field: c.field });
    else teeth[key] = result;
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, chart: { teeth } };
}

export type ChartWarningCode = "cal_negative" | "implant_mobility" | "bop_without_pd" | "suppuration_without_pd";
export type ChartWarning = { code: ChartWarningCode; tooth: number; site?: Site };

/**
 * Combinations that can be stored but are probably wrong (shown, never blocking): an attachment
 * level coronal to the CEJ (hyperplasia larger than the pocket), a mobile implant (a failing
 * implant, worth a second look), bleeding or pus recorded at a site with no probing depth.
 */
export function chartWarnings(chart: PerioChartData): ChartWarning[] {
  const out: ChartWarning[] = [];
  for (const [key, t] of Object.entries(chart.teeth)) {
    const tooth = Number(key);
    if (t.missing) continue;
    if (t.implant && (t.mobility ?? 0) > 0) out.push({ code: "implant_mobility", tooth });
    for (const s of SITES) {
      const site = t.sites[s];
      if (site.pd !== null && site.gm !== null && site.pd + site.gm < 0) out.push({ code: "cal_negative", tooth, site: s });
      if (site.pd === null && site.bop) out.push({ code: "bop_without_pd", tooth, site: s });
      if (site.pd === null && site.suppuration) out.push({ code: "suppuration_without_pd", tooth, site: s });
    }
  }
  return out.sort((a, b) => a.tooth - b.tooth);
}
