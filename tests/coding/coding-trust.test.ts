import { describe, expect, it } from "vitest";
import { inclusionIndex } from "#app/services/coding/codes/registry.server.ts";
import { searchCodes } from "#app/services/coding/codes/search.server.ts";
import { applyCutoff, CONFIDENCE_CUTOFF, MAX_ABOVE_CUTOFF } from "#app/services/coding/cutoff.ts";
import { allergyStatement } from "#app/services/coding/engines/embedded/allergy.ts";
import { embeddedEngine } from "#app/services/coding/engines/embedded/index.ts";
import { rationaleText, undocumentedDetail } from "#app/services/coding/engines/embedded/rationale.ts";
import { sectionSpans } from "#app/services/coding/engines/embedded/sections.ts";
import type { SuggestInput } from "#app/services/coding/model.ts";

// Issue 28 / ADR 43: few codes and the right ones, rationale a clinician reads, search like a
// coder's index. The engine is the shipped one (committed lexicon and rankers), no mocks.

const engine = embeddedEngine();
const suggest = (text: string, language: SuggestInput["language"] = "en", tail = true) =>
  engine.suggestSync({ sources: [{ source: "note", text }], language, systems: ["icd10cm"], tail });

// What cases.server.ts noteText() sends: "Title\ntext" blocks separated by a blank line.
const NOTE = [
  "Subjective\nCough and fever for 3 days.",
  "Allergies\nPenicillin (rash).",
  "Assessment\nCommunity acquired pneumonia.",
  "Plan\nAmoxicillin-clavulanate, chest X-ray follow-up in 2 weeks.",
].join("\n\n");

describe("phrase rules", () => {
  it("codes 'community acquired pneumonia' as J18.9, never B20 (HIV) or D64.9 from co-occurrence", () => {
    const out = suggest(NOTE);
    const codes = out.map((s) => s.code);
    expect(codes).toContain("J18.9");
    expect(codes).not.toContain("B20");
    expect(codes).not.toContain("D64.9");
    // The same text without headers (a typed sentence) follows the same rule.
    const plain = suggest("The patient has community acquired pneumonia.").map((s) => s.code);
    expect(plain).toContain("J18.9");
    expect(plain).not.toContain("B20");
  });

  it("codes 'penicillin (rash)' in the allergy history as Z88.0, not R21, and never the word 'Allergies'", () => {
    const codes = suggest(NOTE).map((s) => s.code);
    expect(codes).toContain("Z88.0");
    expect(codes).not.toContain("R21");
    expect(codes).not.toContain("L53.9");
    expect(codes.some((c) => c.startsWith("T78.4"))).toBe(false);
    // An allergy stated in a sentence, in French too.
    expect(suggest("He is allergic to penicillin (rash).").map((s) => s.code)).toContain("Z88.0");
    expect(allergyStatement("Allergique à la pénicilline (urticaire).", false)?.map((a) => a.code)).toEqual(["Z88.0"]);
    // An allergy cue without an allergen is a condition, coded as usual.
    expect(allergyStatement("Seasonal allergic rhinitis.", false)).toBeNull();
  });

  it("ranks what the Assessment states above incidental mentions, and puts it above the cut-off", () => {
    const out = suggest(NOTE);
    expect(out[0]?.code).toBe("J18.9");
    expect(out[0]?.above_cutoff).toBe(true);
    // Without sections the same words rank by probability only (fever is then likelier).
    const flat = suggest("Cough and fever for 3 days. Community acquired pneumonia.");
    expect(flat.findIndex((s) => s.code === "R50.9")).toBeLessThan(flat.findIndex((s) => s.code === "J18.9"));
  });

  it("reads section headers as written, in the built-in templates' languages", () => {
    const spans = sectionSpans("Évaluation et plan\nPneumonie.\n\nAlergias\nPenicilina.\n\nPhysical examination: clear chest.");
    expect(spans.map((s) => [s.kind, s.title])).toEqual([
      ["assessment", "Évaluation et plan"],
      ["allergies", "Alergias"],
      ["other", "Physical examination"],
    ]);
  });
});

describe("rationale", () => {
  it("says where the note says it, what it says and what the code assumes, in clinician words", () => {
    const j189 = suggest(NOTE).find((s) => s.code === "J18.9");
    expect(j189?.rationale).toBe(
      "Assessment says 'Community acquired pneumonia' → J18.9 Pneumonia, unspecified organism (organism not documented)",
    );
    expect(j189?.rationale).not.toMatch(/learned phrase|acquir /);
    const z880 = suggest(NOTE).find((s) => s.code === "Z88.0");
    expect(z880?.rationale).toContain("Allergies says 'Penicillin' → Z88.0 Allergy status to penicillin");
  });

  it("uses the note's language (en/fr/es templates from locales/*/codingRationale.json)", () => {
    const base = {
      source: "note" as const,
      section: "Évaluation",
      quotes: ["pneumonie communautaire"],
      code: "J18.9",
      title: "Pneumonia, unspecified organism",
      notes: [],
      missing: [],
    };
    expect(rationaleText({ ...base, language: "fr" })).toBe(
      "Évaluation indique 'pneumonie communautaire' → J18.9 Pneumonia, unspecified organism (organism : non documenté)",
    );
    expect(rationaleText({ ...base, language: "es", section: null, quotes: ["a", "b"] })).toBe(
      "La nota dice 'a' y 'b' → J18.9 Pneumonia, unspecified organism (organism: no documentado)",
    );
    expect(
      rationaleText({ ...base, language: "en", section: null, missing: ["laterality"], title: "Pain in unspecified knee" }),
    ).toBe(
      "The note says 'pneumonie communautaire' → J18.9 Pain in unspecified knee (knee not documented; laterality not documented: unspecified side coded)",
    );
    expect(undocumentedDetail("Otitis media, unspecified, unspecified ear")).toBeNull();
    expect(undocumentedDetail("Anemia, unspecified")).toBeNull();
  });
});

describe("confidence cut-off", () => {
  it("marks every suggestion, at most 15 above the cut-off per system, engine decisions kept", () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ system: "icd10cm", code: `X${i}`, confidence: 0.9 }));
    const marked = applyCutoff([...many, { system: "hcpcs", code: "K0001", confidence: 0.9 }]);
    expect(marked.filter((s) => s.system === "icd10cm" && s.above_cutoff)).toHaveLength(MAX_ABOVE_CUTOFF);
    expect(marked.at(-1)?.above_cutoff).toBe(true);
    expect(applyCutoff([{ system: "icd10cm", confidence: CONFIDENCE_CUTOFF - 0.01 }])[0]?.above_cutoff).toBe(false);
    expect(applyCutoff([{ system: "icd10cm", confidence: 0.05, above_cutoff: true }])[0]?.above_cutoff).toBe(true);
  });

  it("the engine never puts a tail candidate above the cut-off, and agrees with its confidence otherwise", () => {
    const text =
      "A 63-year-old smoker with type 2 diabetes mellitus with hyperglycemia and essential hypertension presented with chest pain. Nicotine dependence.";
    const out = suggest(text);
    const confident = new Set(suggest(text, "en", false).map((s) => s.code));
    for (const s of out) {
      expect(typeof s.above_cutoff).toBe("boolean");
      if (!confident.has(s.code)) expect(s.above_cutoff).toBe(false);
      else expect(s.above_cutoff).toBe(s.confidence >= CONFIDENCE_CUTOFF);
    }
    expect(out.filter((s) => s.above_cutoff).length).toBeGreaterThan(0);
  });
});

describe("search like a coder's index", () => {
  const codes = (q: string, n = 10) => searchCodes("icd10cm", q, n).results.map((r) => r.code);

  it("finds anatomical equivalents and laterality: 'fracture of right distal radius' → lower end of right radius", () => {
    const found = searchCodes("icd10cm", "fracture of right distal radius", 10).results;
    expect(found.map((r) => r.code)).toContain("S52.501A");
    for (const r of found) expect(r.description).toMatch(/fracture.* lower end of (?:right radius|radius, right arm)/i);
    expect(codes("proximal humerus fracture left")).toContain("S42.202A");
  });

  it("maps lay words to the titles' words: heart attack, high blood pressure", () => {
    expect(codes("heart attack", 3)[0]).toBe("I21.9");
    expect(codes("high blood pressure", 3)[0]).toBe("I10");
    expect(codes("broken right collarbone")).toContain("S42.001A");
  });

  it("finds codes by the Tabular List's inclusion terms, resolved to FY2026 and flagged when changed", () => {
    const sweats = searchCodes("icd10cm", "night sweats", 5).results[0];
    expect(sweats).toMatchObject({ code: "R61", matched_term: "Night sweats" });
    expect(sweats?.term_status).toBeUndefined();
    // "Lumbago NOS" was under M54.5, split in FY2021+ into M54.50/M54.51/M54.59.
    const lumbago = searchCodes("icd10cm", "lumbago", 10).results.filter((r) => r.matched_term === "Lumbago NOS");
    expect(lumbago.map((r) => r.code)).toEqual(expect.arrayContaining(["M54.50", "M54.51", "M54.59"]));
    expect(lumbago[0]).toMatchObject({ term_code: "M54.5", term_status: "split" });
    // The one retired code: cannabis poisoning T40.7X1 → the current T40.71x codes, flagged.
    const cannabis = searchCodes("icd10cm", "poisoning by cannabis NOS", 5).results[0];
    expect(cannabis).toMatchObject({ term_code: "T40.7X1", term_status: "retired" });
    expect(cannabis?.code.startsWith("T40.7")).toBe(true);
    expect(inclusionIndex().size).toBe(11_612);
  });

  it("the engine matches inclusion terms of codes still billable, and its rationale names the term", () => {
    const r61 = suggest("Assessment\nNight sweats for a month.").find((s) => s.code === "R61");
    expect(r61?.rationale).toBe(
      "Assessment says 'Night sweats' → R61 Generalized hyperhidrosis (Tabular List inclusion term 'Night sweats')",
    );
    expect(r61?.above_cutoff).toBe(true);
  });

  it("never answers nothing for a phrase naming a billable condition (the closest titles instead)", () => {
    for (const q of ["pneumonia of the left lower lobe xyz", "right distal radius fracture"]) {
      expect(codes(q).length, q).toBeGreaterThan(0);
    }
    expect(codes("severe community acquired pneumonia", 3)[0]).toBe("J18.9");
  });
});
