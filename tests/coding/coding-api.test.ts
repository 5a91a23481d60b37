import { afterAll, beforeAll, expect, it } from "vitest";
import * as searchRoute from "#app/routes/resources/api-codes-search.ts";
import * as suggestRoute from "#app/routes/resources/api-coding-suggest.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { call, openVisitHarness, type VisitHarness } from "#tests/visits/harness.ts";

// docs/api.md "Coding": code search and stateless suggestions, shapes, roles and stable 4xx codes.

describeEachDatabase("coding API", (target) => {
  let h: VisitHarness;
  beforeAll(async () => {
    h = await openVisitHarness(target);
  });
  afterAll(async () => {
    await h.close();
  });

  const search = (query: string, as: "clinician" | "anonymous" = "clinician") =>
    call(h, searchRoute, { method: "GET", path: `/api/codes/search?${query}`, as });
  const suggest = (json: unknown, as: "clinician" | "staff" | "admin" | "outsider" | "owner" = "clinician") =>
    call(h, suggestRoute, { method: "POST", path: "/api/coding/suggest", json, as });

  it("GET /api/codes/search answers dotted codes with titles and the billable flag", async () => {
    const res = await search("system=icd10cm&q=e1165");
    expect(res.status).toBe(200);
    expect(res.body.version).toBe("FY2026");
    expect(res.body.results[0]).toEqual({
      code: "E11.65",
      description: "Type 2 diabetes mellitus with hyperglycemia",
      billable: true,
    });
    const hcpcs = await search("system=hcpcs&q=wheelchair&limit=3");
    expect(hcpcs.body).toMatchObject({ system: "hcpcs", version: "2019-01" });
    expect(hcpcs.body.results).toHaveLength(3);
  });

  it("GET /api/codes/search refuses bad input and anonymous callers", async () => {
    expect((await search("system=snomed&q=x")).body.code).toBe("validation_failed");
    expect((await search("q=x&limit=0")).status).toBe(400);
    expect((await search("q=x", "anonymous")).status).toBe(401);
  });

  it("POST /api/coding/suggest returns validated suggestions with evidence into the text", async () => {
    const text = "Essential hypertension, well controlled. Denies chest pain.";
    const res = await suggest({ text, language: "en" });
    expect(res.status).toBe(200);
    const codes = res.body.suggestions.map((s: { code: string }) => s.code);
    expect(codes).toContain("I10");
    expect(codes).not.toContain("R07.9");
    for (const s of res.body.suggestions) {
      expect(Object.keys(s).sort()).toEqual(
        expect.arrayContaining(["code", "confidence", "description", "evidence", "rationale", "system"]),
      );
      for (const e of s.evidence) expect(text.slice(e.start, e.end)).toBe(e.quote);
      expect(s.evidence[0].source).toBe("text");
      // ADR 43: every suggestion says whether it is above the confidence cut-off.
      expect(typeof s.above_cutoff).toBe("boolean");
    }
    expect(res.body.suggestions.find((s: { code: string }) => s.code === "I10")?.above_cutoff).toBe(true);
  });

  it("POST /api/coding/suggest returns the ranked list, cut by limit and min_confidence", async () => {
    const text = "Type 2 diabetes mellitus with hyperglycemia. Essential hypertension and COPD. Nicotine dependence.";
    const all = (await suggest({ text })).body.suggestions as Array<{ code: string; confidence: number }>;
    expect(all.length).toBeGreaterThan(2);
    const two = (await suggest({ text, limit: 2 })).body.suggestions as Array<{ code: string }>;
    expect(two.map((s) => s.code)).toEqual(all.slice(0, 2).map((s) => s.code));
    const sure = (await suggest({ text, min_confidence: 0.2 })).body.suggestions as Array<{ confidence: number }>;
    expect(sure.length).toBe(all.filter((s) => s.confidence >= 0.2).length);
    expect((await suggest({ text, limit: 0 })).body.code).toBe("validation_failed");
    expect((await suggest({ text, limit: 51 })).status).toBe(400);
    expect((await suggest({ text, min_confidence: 2 })).body.code).toBe("validation_failed");
  });

  it("POST /api/coding/suggest: owners and clinicians only; stable 4xx for bad bodies", async () => {
    expect((await suggest({ text: "asthma" }, "owner")).status).toBe(200);
    expect((await suggest({ text: "asthma" }, "staff")).body.code).toBe("forbidden_role");
    expect((await suggest({ text: "asthma" }, "admin")).status).toBe(403);
    expect((await suggest({ text: "" })).body.code).toBe("validation_failed");
    expect((await suggest({ text: "asthma", code_systems: ["snomed"] })).status).toBe(400);
    expect((await suggest({ text: "a\u0000b" })).body.code).toBe("invalid_text");
    expect((await suggest("{not json")).body.code).toBe("bad_json");
    expect((await call(h, suggestRoute, { method: "GET", path: "/api/coding/suggest" })).status).toBe(405);
  });
});
