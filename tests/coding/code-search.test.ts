import { describe, expect, it } from "vitest";
import { hcpcsTable, icd10cmData, icd10cmTable } from "#app/services/coding/codes/registry.server.ts";

// docs/coding.md "Code sets" and "Search": the committed FY2026 and HCPCS 2019 data, code prefix
// with or without the dot, words, typos, abbreviations, headers marked not billable, and the
// p95 ≤ 30 ms budget.

describe("code sets", () => {
  it("ships every FY2026 billable code with its official title, and the categories as headers", () => {
    const { table, file } = icd10cmData();
    expect(file.codes).toHaveLength(74_719);
    expect(table.get("E11.65")).toEqual({
      key: "E1165",
      code: "E11.65",
      title: "Type 2 diabetes mellitus with hyperglycemia",
      billable: true,
    });
    expect(table.get("E11")?.billable).toBe(false);
    // A three-character billable code (no subdivisions) stays billable.
    expect(table.get("I10")).toMatchObject({ code: "I10", billable: true });
    expect(file.neoplasm.find(([site]) => site.startsWith("Neoplasm, neoplastic, breast "))?.[1][0]).toBe("C509-");
  });

  it("ships HCPCS Level II January 2019 with its date; modifiers are not billable lines", () => {
    const t = hcpcsTable();
    expect(t.version).toBe("2019-01");
    expect(t.get("K0001")).toMatchObject({ title: "Standard wheelchair", billable: true });
    expect(t.get("RT")?.billable).toBe(false);
  });
});

describe("code search", () => {
  const t = icd10cmTable();
  const codes = (q: string, n = 5) => t.search(q, n).map((r) => r.code);

  it("finds codes by prefix with or without the dot, in either case", () => {
    expect(codes("E11.65")[0]).toBe("E11.65");
    expect(codes("e1165")[0]).toBe("E11.65");
    expect(codes("E11.6").every((c) => c.startsWith("E11.6"))).toBe(true);
  });

  it("finds codes by words, typos and abbreviations", () => {
    expect(codes("type 2 diabetes hyperglycemia")[0]).toBe("E11.65");
    expect(codes("pnemonia", 50)).toContain("J18.9");
    expect(codes("otitis media right")).toContain("H66.91");
    expect(codes("COPD exacerbation", 10)).toContain("J44.1");
    expect(codes("asthma exac")[0]).toMatch(/^J45\./);
  });

  it("answers with dotted codes, official titles and the billable flag", () => {
    for (const r of t.search("diabetes", 50)) {
      const entry = t.get(r.code);
      expect(entry?.title).toBe(r.description);
      expect(r.billable).toBe(entry?.billable);
      if (r.code.length > 3) expect(r.code).toMatch(/^[A-Z][0-9A-Z]{2}\.[0-9A-Z]{1,4}$/);
    }
  });

  it("answers within 30 ms at the 95th percentile", () => {
    const queries = [
      "E11",
      "e11.65",
      "diabtes",
      "chest pain",
      "fracture left femur",
      "hypertension",
      "pnemonia",
      "copd",
      "a0",
      "otitis",
    ];
    const times: number[] = [];
    // Round 0 warms the JIT up, as a long-running server is; it is not measured.
    for (let round = 0; round < 6; round++) {
      for (const q of queries) {
        const start = performance.now();
        t.search(q, 20);
        if (round > 0) times.push(performance.now() - start);
      }
    }
    times.sort((a, b) => a - b);
    expect(times[Math.floor(times.length * 0.95)]).toBeLessThan(30);
  });
});
