// 2017 AAP/EFP classification of periodontitis (Tonetti, Greenwell & Kornman, J Periodontol 2018;
// 89 Suppl 1:S159–S172; Papapanou et al. 2018): a proposal the clinician confirms or overrides
// (issue 14 "Classification"). Every step appends a rationale entry with a stable code the UI
// translates (perio.json "rationale.*"), so the clinician sees why.

import { calOf, getTooth, type PerioChartData } from "./model.ts";
import { INTERDENTAL_SITES, isUpper, positionInQuadrant, SITES, UNIVERSAL_TEETH } from "./teeth.ts";

export type Smoking = "never" | "former" | "lt10" | "ge10";

/** What the chart cannot know: entered by the clinician (all optional). */
export type RiskFactors = {
  smoking?: Smoking | null;
  diabetes?: boolean | null;
  hba1c?: number | null;
  /** Radiographic bone loss at the worst site, % of root length. */
  boneLossPercent?: number | null;
  age?: number | null;
  /** Teeth lost because of periodontitis (the chart's missing teeth may be lost for other reasons). */
  teethLostToPerio?: number | null;
  /** Vertical bone loss ≥ 3 mm (stage III complexity). */
  verticalBoneLoss?: boolean | null;
  /** Masticatory dysfunction, bite collapse, drifting/flaring, severe ridge defect (stage IV complexity). */
  complexRehabilitation?: boolean | null;
  /** Largest increase of interdental CAL over the last 5 years, mm (direct evidence of progression). */
  calLoss5y?: number | null;
};

export type Stage = 1 | 2 | 3 | 4;
export type Extent = "localised" | "generalised" | "molar_incisor";
export type Grade = "A" | "B" | "C";
export type Rationale = { code: string; values?: Record<string, string | number> };

export type Classification = {
  /** null: not enough attachment data (no interdental CAL recorded). */
  periodontitis: boolean | null;
  stage: Stage | null;
  extent: Extent | null;
  grade: Grade | null;
  rationale: Rationale[];
};

type ToothCal = { tooth: number; maxInterdentalCal: number };

function interdentalCals(chart: PerioChartData): ToothCal[] {
  const out: ToothCal[] = [];
  for (const t of UNIVERSAL_TEETH) {
    const tooth = getTooth(chart, t);
    if (tooth.missing || tooth.implant) continue;
    let max: number | null = null;
    for (const s of INTERDENTAL_SITES) {
      const cal = calOf(tooth.sites[s]);
      if (cal !== null) max = Math.max(max ?? cal, cal);
    }
    if (max !== null) out.push({ tooth: t, maxInterdentalCal: max });
  }
  return out;
}

const adjacent = (a: number, b: number) => Math.abs(a - b) === 1 && isUpper(a) === isUpper(b);

function hasNonAdjacentPair(teeth: number[]): boolean {
  for (let i = 0; i < teeth.length; i++)
    for (let j = i + 1; j < teeth.length; j++) if (!adjacent(teeth[i] as number, teeth[j] as number)) return true;
  return false;
}

/** Case definition (Papapanou 2018): interdental CAL at ≥ 2 non-adjacent teeth, or buccal/oral CAL ≥ 3 mm with PD > 3 mm at ≥ 2 teeth. */
function isCase(chart: PerioChartData, cals: ToothCal[]): boolean {
  if (hasNonAdjacentPair(cals.filter((c) => c.maxInterdentalCal >= 1).map((c) => c.tooth))) return true;
  let teeth = 0;
  for (const t of UNIVERSAL_TEETH) {
    const tooth = getTooth(chart, t);
    if (tooth.missing || tooth.implant) continue;
    const hit = (["B", "L"] as const).some((s) => {
      const cal = calOf(tooth.sites[s]);
      return cal !== null && cal >= 3 && (tooth.sites[s].pd ?? 0) > 3;
    });
    if (hit) teeth++;
  }
  return teeth >= 2;
}

const calBand = (cal: number): 1 | 2 | 3 => (cal >= 5 ? 3 : cal >= 3 ? 2 : 1);
const bandFloor = { 1: 1, 2: 3, 3: 5 } as const;
const STAGE_NAMES = { 1: "I", 2: "II", 3: "III", 4: "IV" } as const;

export function stageName(stage: Stage): string {
  return STAGE_NAMES[stage];
}

export function classify(chart: PerioChartData, risk: RiskFactors = {}): Classification {
  const rationale: Rationale[] = [];
  const cals = interdentalCals(chart);
  if (cals.length === 0) {
    rationale.push({ code: "no_cal_data" });
    return { periodontitis: null, stage: null, extent: null, grade: null, rationale };
  }
  if (!isCase(chart, cals)) {
    rationale.push({ code: "no_case" });
    return { periodontitis: false, stage: null, extent: null, grade: null, rationale };
  }

  // ---- Stage: severity (interdental CAL, bone loss, tooth loss), then complexity.
  const maxCal = Math.max(...cals.map((c) => c.maxInterdentalCal));
  const severity = calBand(maxCal);
  let stage: Stage = severity;
  rationale.push({ code: "stage_cal", values: { cal: maxCal, stage: STAGE_NAMES[severity] } });
  if (risk.boneLossPercent != null) {
    const rbl = risk.boneLossPercent;
    const byBone: Stage = rbl > 33 ? 3 : rbl >= 15 ? 2 : 1;
    if (byBone > stage) {
      stage = byBone;
      rationale.push({ code: "stage_bone_loss", values: { percent: rbl, stage: STAGE_NAMES[byBone] } });
    }
  }
  const lost = risk.teethLostToPerio ?? 0;
  if (lost >= 5) {
    stage = 4;
    rationale.push({ code: "stage_tooth_loss_iv", values: { lost } });
  } else if (lost >= 1 && stage < 3) {
    stage = 3;
    rationale.push({ code: "stage_tooth_loss_iii", values: { lost } });
  }

  let maxPd = 0;
  let maxFurcation = 0;
  let maxMobility = 0;
  let naturalTeeth = 0;
  for (const t of UNIVERSAL_TEETH) {
    const tooth = getTooth(chart, t);
    if (tooth.missing) continue;
    if (!tooth.implant) naturalTeeth++;
    maxMobility = Math.max(maxMobility, tooth.mobility ?? 0);
    for (const g of Object.values(tooth.furcation)) maxFurcation = Math.max(maxFurcation, g ?? 0);
    for (const s of SITES) maxPd = Math.max(maxPd, tooth.sites[s].pd ?? 0);
  }
  if (maxPd === 5 && stage < 2) {
    stage = 2;
    rationale.push({ code: "stage_complexity_pd5", values: { pd: maxPd } });
  }
  if (stage < 3) {
    if (maxPd >= 6) rationale.push({ code: "stage_complexity_pd6", values: { pd: maxPd } });
    if (maxFurcation >= 2) rationale.push({ code: "stage_complexity_furcation", values: { grade: maxFurcation } });
    if (risk.verticalBoneLoss) rationale.push({ code: "stage_complexity_vertical" });
    if (maxPd >= 6 || maxFurcation >= 2 || risk.verticalBoneLoss) stage = 3;
  }
  if (stage >= 3) {
    const reasons: Rationale[] = [];
    if (maxMobility >= 2) reasons.push({ code: "stage_iv_mobility", values: { mobility: maxMobility } });
    if (naturalTeeth < 20) reasons.push({ code: "stage_iv_few_teeth", values: { teeth: naturalTeeth } });
    if (risk.complexRehabilitation) reasons.push({ code: "stage_iv_rehabilitation" });
    if (reasons.length > 0) {
      stage = 4;
      rationale.push(...reasons);
    }
  }

  // ---- Extent: teeth with attachment loss at the level that defines the severity.
  const floor = bandFloor[severity];
  const involved = cals.filter((c) => c.maxInterdentalCal >= floor).map((c) => c.tooth);
  const percent = naturalTeeth > 0 ? Math.round((involved.length / naturalTeeth) * 100) : 0;
  const molarIncisor = involved.length > 0 && involved.every((t) => [1, 2, 6].includes(positionInQuadrant(t)));
  let extent: Extent;
  if (molarIncisor && severity >= 2) extent = "molar_incisor";
  else extent = percent < 30 ? "localised" : "generalised";
  rationale.push({ code: `extent_${extent}`, values: { involved: involved.length, teeth: naturalTeeth, percent, cal: floor } });

  // ---- Grade: B by default; direct then indirect evidence of progression; risk factors raise it.
  let grade: Grade = "B";
  let evidence = false;
  if (risk.calLoss5y != null) {
    evidence = true;
    grade = risk.calLoss5y >= 2 ? "C" : risk.calLoss5y > 0 ? "B" : "A";
    rationale.push({ code: "grade_direct", values: { mm: risk.calLoss5y, grade } });
  } else if (risk.boneLossPercent != null && risk.age != null && risk.age > 0) {
    evidence = true;
    const ratio = Math.round((risk.boneLossPercent / risk.age) * 100) / 100;
    grade = ratio > 1 ? "C" : ratio >= 0.25 ? "B" : "A";
    rationale.push({ code: "grade_bone_age", values: { ratio, grade } });
  }
  if (!evidence) rationale.push({ code: "grade_default" });
  const raise = (to: Grade, code: string, values?: Rationale["values"]) => {
    if (to > grade) {
      grade = to;
      rationale.push({ code, values: { ...values, grade: to } });
    }
  };
  if (risk.smoking === "ge10") raise("C", "grade_smoking_heavy");
  else if (risk.smoking === "lt10") raise("B", "grade_smoking_light");
  if (risk.diabetes) {
    if (risk.hba1c != null && risk.hba1c >= 7) raise("C", "grade_hba1c_high", { hba1c: risk.hba1c });
    else raise("B", "grade_diabetes", risk.hba1c != null ? { hba1c: risk.hba1c } : undefined);
  }

  return { periodontitis: true, stage, extent, grade, rationale };
}
