import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { icd10cmTable } from "#app/services/coding/codes/registry.server.ts";
import { embeddedEngine } from "#app/services/coding/engines/embedded/index.ts";
import { createOpenAiCodingEngine } from "#app/services/coding/engines/openai-compatible/engine.server.ts";
import type { Suggestion } from "#app/services/coding/model.ts";
import { chatCompletion, createOpenAiChatMock } from "#tests/mocks/openai-chat.ts";

// docs/coding.md "Embedded engine", "Rules" and "Validation": billable codes with official titles,
// exact evidence offsets, negation/uncertainty/history, laterality and episode details, Excludes1;
// an OpenAI-compatible engine's proposals go through the same table checks.

const table = icd10cmTable();
const engine = embeddedEngine();
const suggest = (text: string) =>
  engine.suggestSync({ sources: [{ source: "text", text }], language: "en", systems: ["icd10cm"] });
const codes = (text: string) => suggest(text).map((s) => s.code);

function expectValid(text: string, suggestions: Suggestion[]) {
  for (const s of suggestions) {
    const entry = table.get(s.code);
    expect(entry?.billable, s.code).toBe(true);
    expect(s.description).toBe(entry?.title);
    expect(s.confidence).toBeGreaterThanOrEqual(0);
    expect(s.confidence).toBeLessThanOrEqual(1);
    expect(s.evidence.length).toBeGreaterThan(0);
    for (const e of s.evidence) expect(text.slice(e.start, e.end)).toBe(e.quote);
    expect(s.rationale).toContain(s.code);
  }
}

describe("embedded engine", () => {
  it("suggests billable codes with official titles, exact evidence and a rationale", () => {
    const text =
      "Follow-up for type 2 diabetes mellitus with hyperglycemia. Also essential hypertension and COPD. Cough for 3 days.";
    const out = suggest(text);
    expect(out.map((s) => s.code)).toEqual(expect.arrayContaining(["E11.65", "I10", "J44.9", "R05.9"]));
    expect(out[0]?.code).toBe("E11.65");
    expect(out[0]?.rationale).toContain("'type 2 diabetes mellitus with hyperglycemia' → E11.65");
    expectValid(text, out);
  });

  it("does not code negated or uncertain conditions as confirmed, but codes the symptoms", () => {
    const text = "Patient denies chest pain. No fever. Cough, possible pneumonia, rule out asthma.";
    const out = codes(text);
    expect(out).toContain("R05.9");
    expect(out).not.toContain("R07.9");
    expect(out).not.toContain("R50.9");
    expect(out.some((c) => c.startsWith("J18") || c.startsWith("J45"))).toBe(false);
  });

  it("codes a history-of condition with its personal history Z code", () => {
    const text = "History of breast cancer. History of myocardial infarction.";
    const out = suggest(text);
    expect(out.map((s) => s.code)).toEqual(expect.arrayContaining(["Z85.9", "I25.2"]));
    expect(out.some((s) => s.code.startsWith("C"))).toBe(false);
    expectValid(text, out);
  });

  it("takes laterality from the text, else codes the unspecified side and says what is missing", () => {
    const right = suggest("Acute otitis media of the right ear.");
    expect(right.some((s) => s.code.startsWith("H66.9") && s.description.includes("right ear"))).toBe(true);
    const none = suggest("Otitis media.").find((s) => s.code.startsWith("H66"));
    expect(none?.code).toBe("H66.90");
    expect(none?.missing).toEqual(["laterality"]);
    const fracture = suggest("Fracture of left femur.").find((s) => s.code.startsWith("S72"));
    expect(fracture?.description).toContain("left femur, initial encounter");
    expect(fracture?.missing).toEqual(["episode_of_care"]);
  });

  it("flags Excludes1 pairs", () => {
    const out = suggest("Type 1 diabetes mellitus. Type 2 diabetes mellitus.");
    const t1 = out.find((s) => s.code.startsWith("E10"));
    expect(t1?.excludes1?.some((c) => c.startsWith("E11"))).toBe(true);
  });

  it("adds low-confidence tail candidates under the same rules; a case asks for confident ones only", () => {
    const text =
      "Follow-up for type 2 diabetes mellitus with hyperglycemia. Also essential hypertension and COPD. Smoker with nicotine dependence. No chronic kidney disease.";
    const all = suggest(text);
    const confident = engine.suggestSync({
      sources: [{ source: "text", text }],
      language: "en",
      systems: ["icd10cm"],
      tail: false,
    });
    expectValid(text, all);
    expect(all.length).toBeGreaterThan(confident.length);
    // The confident suggestions come first, as they are; the tail follows, never more confident.
    expect(all.slice(0, confident.length)).toEqual(confident);
    const floor = confident.at(-1)?.confidence ?? 1;
    for (const s of all.slice(confident.length)) expect(s.confidence).toBeLessThanOrEqual(floor);
    // A category named without the detail its codes need: its most used child, said so in the rationale.
    const smoker = all.find((s) => s.code.startsWith("F17.2"));
    expect(smoker?.rationale).toContain("category F17");
    expect(confident.some((s) => s.code.startsWith("F17"))).toBe(false);
    // Negated mentions stay out of the tail too: nothing has evidence in "No chronic kidney disease".
    const negated = text.indexOf("No chronic");
    expect(all.some((s) => s.evidence.some((e) => e.start >= negated))).toBe(false);
  });

  it("answers an empty list for text with nothing to code, and for other systems only", () => {
    expect(codes("The weather is nice today.")).toEqual([]);
    expect(engine.suggestSync({ sources: [{ source: "text", text: "asthma" }], language: "en", systems: ["hcpcs"] })).toEqual([]);
  });
});

describe("OpenAI-compatible coding engine", () => {
  const mock = createOpenAiChatMock();
  beforeAll(() => mock.listen());
  afterAll(() => mock.close());
  beforeEach(() => mock.reset());

  it("keeps only billable table codes, with the table's title and evidence found in the text", async () => {
    const text = "Type 2 diabetes with hyperglycemia. Cough.";
    mock.respond(() =>
      chatCompletion({
        suggestions: [
          {
            code: "E11.65",
            confidence: 1.7,
            quote: "Type 2 diabetes with hyperglycemia",
            rationale: "T2DM + hyperglycemia",
            description: "made up",
          },
          { code: "E11", confidence: 0.9, quote: "Type 2 diabetes" },
          { code: "X99.999", confidence: 0.9, quote: "Cough" },
          { code: "R059", confidence: 0.4, quote: "cough" },
          { code: "J45.909", confidence: 0.9, quote: "asthma" },
        ],
      }),
    );
    const llm = createOpenAiCodingEngine({ baseUrl: "https://llm.example.test/v1", model: "m", timeoutMs: 5000 }, table);
    const out = await llm.suggest({ sources: [{ source: "text", text }], language: "en", systems: ["icd10cm"] });
    expect(out.map((s) => s.code)).toEqual(["E11.65", "R05.9"]);
    expect(out[0]?.description).toBe("Type 2 diabetes mellitus with hyperglycemia");
    expect(out[0]?.confidence).toBe(1);
    expectValid(
      text,
      out.map((s) => ({ ...s, rationale: `${s.rationale} ${s.code}` })),
    );
    expect(out[1]?.evidence[0]).toEqual({ source: "text", start: 36, end: 41, quote: "Cough" });
  });
});
