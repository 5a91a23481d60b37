// Worked examples written from the 2017 AAP/EFP classification (Tonetti et al. 2018, Table 4 and the
// grading table; Papapanou et al. 2018 case definition). Each case states the clinical picture the
// way the paper's tables read, then the expected stage, extent and grade.
import { describe, expect, it } from "vitest";
import { applyChanges, type PerioChange } from "#app/services/perio/changes.ts";
import { classify } from "#app/services/perio/classification.ts";
import { emptyChart, type PerioChartData } from "#app/services/perio/model.ts";
import { SITES, UNIVERSAL_TEETH } from "#app/services/perio/teeth.ts";

/** Every present tooth healthy (PD 2, GM −1 → CAL 1 at the buccal/lingual, 0 interdentally), then `edits`. */
function chart(edits: PerioChange[], missing: number[] = []): PerioChartData {
  const base: PerioChange[] = [];
  for (const t of UNIVERSAL_TEETH) {
    if (missing.includes(t)) {
      base.push({ tooth: t, field: "missing", value: true });
      continue;
    }
    for (const s of SITES) {
      base.push({ tooth: t, site: s, field: "pd", value: 2 });
      base.push({ tooth: t, site: s, field: "gm", value: s === "B" || s === "L" ? -1 : -2 });
    }
  }
  const r = applyChanges(emptyChart(), [...base, ...edits]);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.chart;
}

/** Interdental attachment loss `cal` at the mesiobuccal site of each tooth, as PD + GM. */
const loss = (teeth: number[], pd: number, gm: number): PerioChange[] =>
  teeth.flatMap((t) => [
    { tooth: t, site: "MB" as const, field: "pd" as const, value: pd },
    { tooth: t, site: "MB" as const, field: "gm" as const, value: gm },
  ]);

const codes = (r: ReturnType<typeof classify>) => r.rationale.map((x) => x.code);

describe("2017 AAP/EFP classification", () => {
  it("gingival health: no interdental attachment loss is not periodontitis", () => {
    const r = classify(chart([]));
    expect(r.periodontitis).toBe(false);
    expect(r.stage).toBeNull();
    expect(codes(r)).toEqual(["no_case"]);
  });

  it("no GM recorded: the chart cannot stage", () => {
    expect(classify(emptyChart()).periodontitis).toBeNull();
  });

  it("interdental CAL at two adjacent teeth only is not yet a case", () => {
    expect(classify(chart(loss([3, 4], 3, 0))).periodontitis).toBe(false);
    expect(classify(chart(loss([3, 5], 3, 0))).periodontitis).toBe(true);
  });

  it("Stage I, localised, grade A: CAL 1–2 mm, PD ≤ 4, bone loss 10% at 50, non-smoker", () => {
    const r = classify(chart(loss([3, 14, 19], 2, 0)), { boneLossPercent: 10, age: 50, smoking: "never", diabetes: false });
    expect([r.stage, r.extent, r.grade]).toEqual([1, "localised", "A"]);
    expect(r.rationale[0]).toEqual({ code: "stage_cal", values: { cal: 2, stage: "I" } });
    expect(codes(r)).toContain("grade_bone_age");
  });

  it("Stage II, localised, grade B: CAL 3–4 mm at 8 of 28 teeth, max PD 5, bone loss 25% at 45", () => {
    const r = classify(chart(loss([2, 3, 4, 13, 14, 15, 18, 31], 5, -1), [1, 16, 17, 32]), { boneLossPercent: 25, age: 45 });
    expect([r.stage, r.extent, r.grade]).toEqual([2, "localised", "B"]);
    expect(r.rationale.find((x) => x.code === "extent_localised")?.values).toMatchObject({ involved: 8, teeth: 28, percent: 29 });
  });

  it("Stage II becomes generalised at 30% of teeth", () => {
    const r = classify(chart(loss([2, 3, 4, 5, 12, 13, 14, 15, 18], 4, 0), [1, 16, 17, 32]));
    expect([r.stage, r.extent, r.grade]).toEqual([2, "generalised", "B"]);
    expect(codes(r)).toContain("grade_default");
  });

  it("Stage III, generalised, grade C: CAL ≥ 5 mm, PD 7, furcation II, heavy smoker", () => {
    const edits = [
      ...loss([2, 3, 4, 5, 6, 11, 12, 13, 14, 15, 18, 19, 20, 29, 30, 31], 7, 0),
      { tooth: 30, site: "B" as const, field: "furcation" as const, value: 2 },
    ];
    const r = classify(chart(edits), { smoking: "ge10", boneLossPercent: 40, age: 48 });
    expect([r.stage, r.extent, r.grade]).toEqual([3, "generalised", "C"]);
    expect(codes(r)).toContain("grade_smoking_heavy");
  });

  it("PD 6 mm or a class II furcation shifts CAL-defined stage II to stage III (complexity)", () => {
    const r = classify(chart([...loss([3, 14], 4, 0), { tooth: 14, site: "DL", field: "furcation", value: 2 }]));
    expect(r.stage).toBe(3);
    expect(codes(r)).toContain("stage_complexity_furcation");
    const r2 = classify(chart(loss([3, 14], 6, -2)));
    expect(r2.stage).toBe(3);
    expect(codes(r2)).toContain("stage_complexity_pd6");
  });

  it("Stage IV: CAL ≥ 5 mm with 5 teeth lost to periodontitis, mobility 2, 18 teeth left", () => {
    const missing = [1, 2, 3, 14, 15, 16, 17, 18, 19, 30, 31, 32, 4, 13];
    const edits = [...loss([5, 6, 11, 12, 20, 21, 28, 29], 6, 1), { tooth: 5, field: "mobility" as const, value: 2 }];
    const r = classify(chart(edits, missing), { teethLostToPerio: 5, diabetes: true, hba1c: 8.1 });
    expect(r.stage).toBe(4);
    expect(r.grade).toBe("C");
    expect(codes(r)).toEqual(
      expect.arrayContaining(["stage_tooth_loss_iv", "stage_iv_mobility", "stage_iv_few_teeth", "grade_hba1c_high"]),
    );
  });

  it("one tooth lost to periodontitis puts a CAL 3–4 mm case at stage III", () => {
    expect(classify(chart(loss([3, 14], 4, 0)), { teethLostToPerio: 1 }).stage).toBe(3);
  });

  it("Molar–incisor pattern, grade C: CAL ≥ 5 mm only at first molars and incisors, 40% bone loss at 17", () => {
    const r = classify(chart(loss([3, 14, 19, 30, 7, 8, 9, 10, 23, 24, 25, 26], 6, 0)), { boneLossPercent: 40, age: 17 });
    expect([r.stage, r.extent, r.grade]).toEqual([3, "molar_incisor", "C"]);
    expect(codes(r)).toContain("grade_bone_age");
  });

  it("grade: direct evidence wins over the bone-loss/age ratio; risk factors only raise it", () => {
    const c = chart(loss([3, 14], 4, 0));
    expect(classify(c, { calLoss5y: 0, boneLossPercent: 50, age: 30 }).grade).toBe("A");
    expect(classify(c, { calLoss5y: 2 }).grade).toBe("C");
    expect(classify(c, { calLoss5y: 0, smoking: "lt10" }).grade).toBe("B");
    expect(classify(c, { calLoss5y: 0, diabetes: true, hba1c: 6.5 }).grade).toBe("B");
    expect(classify(c, { calLoss5y: 1, diabetes: true, hba1c: 7 }).grade).toBe("C");
  });
});
