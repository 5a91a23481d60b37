import { describe, expect, it } from "vitest";
import { indexProcedures, suggestProcedures } from "#app/services/coding/procedures/match.ts";
import { surfacesOf, toothForFhir, toothMentions } from "#app/services/coding/procedures/teeth.ts";

// docs/coding.md "Procedure suggestions": the organisation's imported CPT/CDT matched against the
// note; dental lines take the tooth (Universal or FDI → Universal) and surfaces. The descriptors
// below are written for the test (Murmur ships no CPT/CDT content).

const CDT = indexProcedures([
  { code: "D2392", short: "Resin composite two surfaces posterior", long: "Resin-based composite, two surfaces, posterior" },
  { code: "D2393", short: "Resin composite three surfaces posterior", long: "Resin-based composite, three surfaces, posterior" },
  { code: "D7140", short: "Extraction erupted tooth", long: "Extraction, erupted tooth or exposed root" },
  { code: "D1110", short: "Prophylaxis adult", long: "Prophylaxis - adult" },
]);
const CPT = indexProcedures([
  { code: "71046", short: "X-ray chest 2 views", long: "Radiologic examination, chest; 2 views" },
  {
    code: "93000",
    short: "Electrocardiogram complete",
    long: "Electrocardiogram, routine ECG with at least 12 leads; with interpretation and report",
  },
]);

const sources = (text: string) => [{ source: "note" as const, text }];

describe("procedure suggestions", () => {
  it("matches the note's procedures to imported codes with exact evidence", () => {
    const text = "Plan\nChest radiologic examination, 2 views, done today. Routine 12-lead ECG with interpretation and report.";
    const out = suggestProcedures("cpt", CPT, sources(text));
    expect(out.map((s) => s.code).sort()).toEqual(["71046", "93000"]);
    for (const s of out) {
      expect(s.system).toBe("cpt");
      for (const e of s.evidence) expect(text.slice(e.start, e.end)).toBe(e.quote);
      expect(s.rationale).toContain(s.code);
    }
  });

  it("proposes nothing the note does not describe, and nothing without an imported code set", () => {
    expect(suggestProcedures("cpt", CPT, sources("Patient reports cough for three days. Advised rest."))).toEqual([]);
    expect(suggestProcedures("cdt", indexProcedures([]), sources("Extraction of erupted tooth #30."))).toEqual([]);
  });

  it("takes the Universal tooth and the surfaces of a CDT line", () => {
    const text = "Procedures\nResin-based composite restoration on tooth #14, MO surfaces, posterior.";
    const [line] = suggestProcedures("cdt", CDT, sources(text));
    expect(line?.code).toBe("D2392");
    expect(line?.tooth).toBe("14");
    expect(line?.surfaces).toBe("MO");
    expect(line?.evidence.map((e) => e.quote)).toContain("tooth #14");
  });

  it("reads FDI numbers and stores them in Universal", () => {
    const text = "Extraction of erupted tooth 36 (FDI) under local anaesthesia.";
    const [line] = suggestProcedures("cdt", CDT, sources(text));
    expect(line?.code).toBe("D7140");
    expect(line?.tooth).toBe("19");
    expect(line?.rationale).toContain("FDI");
  });
});

describe("tooth numbers and surfaces", () => {
  it("Universal by default, FDI when stated or outside 1–32", () => {
    const t = (s: string) => toothMentions(s, 0, s.length).map((m) => `${m.tooth}/${m.notation}`);
    expect(t("tooth 3 and 14")).toEqual(["3/universal", "14/universal"]);
    expect(t("tooth 46")).toEqual(["30/fdi"]);
    expect(t("FDI tooth 11")).toEqual(["8/fdi"]);
    expect(t("tooth A")).toEqual(["A/universal"]);
    expect(t("tooth 49")).toEqual([]);
  });

  it("surfaces in MODBLIF order from letters or words", () => {
    expect(surfacesOf("DO composite")).toBe("OD");
    expect(surfacesOf("mesial and occlusal and distal")).toBe("MOD");
    expect(surfacesOf("no surface stated")).toBeNull();
  });
});

describe("FHIR tooth codes", () => {
  it("exports the stored Universal tooth as its ISO 3950 (FDI) number", () => {
    expect(["1", "8", "9", "14", "16", "17", "24", "25", "30", "32"].map(toothForFhir)).toEqual([
      "18",
      "11",
      "21",
      "26",
      "28",
      "38",
      "31",
      "41",
      "46",
      "48",
    ]);
    expect(toothForFhir("46a")).toBe("46a");
    expect(toothForFhir("0")).toBe("0");
  });
});
