// Problem-oriented assessment and plan (issue 18) on visits written for these tests: 1, 3 and 5
// problems in English, French and Spanish; the layout option; the record's sex and the
// patient's name.
import { describe, expect, it } from "vitest";
import { generateExtractive, piecesFromDialogue } from "#app/services/notes/engines/extractive/index.ts";
import type { NoteDraft, NoteLanguage, TemplateSection } from "#app/services/notes/model.ts";
import { splitSentences } from "#app/services/notes/sentences.ts";
import { section, template } from "./extractive-fixtures.ts";
import {
  FIVE_PROBLEMS_EN,
  FIVE_PROBLEMS_ES,
  FIVE_PROBLEMS_FR,
  ONE_PROBLEM_EN,
  ONE_PROBLEM_ES,
  ONE_PROBLEM_FR,
  THREE_PROBLEMS_EN,
  THREE_PROBLEMS_ES,
  THREE_PROBLEMS_FR,
} from "./problem-dialogues.ts";

function draft(
  dialogue: string,
  language: NoteLanguage,
  ap: Partial<TemplateSection> = {},
  sex = "female",
  name?: string,
): NoteDraft {
  const t = template(language, [
    section("hpi", "HPI", "hpi"),
    section("exam", "Exam", "exam"),
    section("ap", "Assessment and plan", "assessment_plan", ap),
  ]);
  return generateExtractive({
    template: t,
    transcript: piecesFromDialogue(dialogue),
    language,
    context: { patient: { sex, ...(name ? { displayName: name } : {}) } },
  });
}

const ap = (d: NoteDraft) => d.sections.find((s) => s.key === "ap") ?? { text: "", sentences: [] };
const headings = (text: string) => text.split("\n").flatMap((line) => /^(\d+)\. ([^:.]+)/.exec(line)?.[2] ?? []);

describe("problem-oriented assessment and plan", () => {
  it("one problem: its assessment, then its plan", () => {
    const section = ap(draft(ONE_PROBLEM_EN, "en"));
    expect(headings(section.text)).toEqual(["Right ankle sprain"]);
    expect(section.text).toMatch(/^1\. Right ankle sprain: This is a grade one sprain\. Plan: .*ibuprofen 600 mg 3 times daily/);
    expect(section.text).toContain("Follow up in 2 weeks.");
  });

  it("three problems, each with its own plan", () => {
    const section = ap(draft(THREE_PROBLEMS_EN, "en", {}, "male"));
    expect(headings(section.text)).toEqual(["Hypertension", "Type 2 diabetes", "Left knee osteoarthritis"]);
    const lines = section.text.split("\n");
    expect(lines.find((l) => l.startsWith("1."))).toContain("Increase lisinopril to 20 mg daily");
    expect(lines.find((l) => l.startsWith("2."))).toContain("Hemoglobin a1c in 1 month");
    expect(lines.find((l) => l.startsWith("2."))).toContain("metformin 1000 mg twice daily");
    expect(lines.find((l) => l.startsWith("3."))).toContain("Refer to physical therapy");
  });

  it("five problems, in the order they were taken up", () => {
    const section = ap(draft(FIVE_PROBLEMS_EN, "en"));
    expect(headings(section.text)).toEqual([
      "Congestive heart failure",
      "Atrial fibrillation",
      "Hypothyroidism",
      "Depression",
      "Osteoporosis",
    ]);
    const lines = section.text.split("\n");
    expect(lines[0]).toContain("Start lasix 40 mg daily");
    expect(lines[1]).toContain("apixaban 5 mg twice daily");
    expect(lines[2]).toContain("levothyroxine 75 mcg daily");
    expect(lines[3]).toContain("sertraline 50 mg daily");
    expect(lines[4]).toContain("alendronate 70 mg");
  });

  it("French and Spanish problems", () => {
    expect(headings(ap(draft(THREE_PROBLEMS_FR, "fr")).text)).toEqual(["Hypertension", "Diabète", "Lombalgie"]);
    expect(ap(draft(THREE_PROBLEMS_FR, "fr")).text).toContain("Plan: Augmenter le ramipril à 10 mg.");
    expect(headings(ap(draft(THREE_PROBLEMS_ES, "es")).text)).toEqual(["Hipertensión", "Diabetes", "Artrosis de rodilla"]);
    expect(ap(draft(THREE_PROBLEMS_ES, "es")).text).toContain("Plan: Derivar a fisioterapia.");
  });

  it.each([
    ["fr", ONE_PROBLEM_FR, "Entorse de la cheville droite", "C'est une entorse bénigne. Plan: Prescrire de l'ibuprofène 400 mg"],
    ["es", ONE_PROBLEM_ES, "Esguince de tobillo derecho", "Es un esguince leve. Plan: Recetar ibuprofeno 400 mg cada 8 horas"],
  ] as const)("one problem in %s: its assessment, then its plan and the follow-up", (language, dialogue, name, body) => {
    const section = ap(draft(dialogue, language, {}, "male"));
    expect(headings(section.text)).toEqual([name]);
    expect(section.text).toContain(`1. ${name}: ${body}`);
    expect(section.text).toMatch(language === "fr" ? /Contrôle dans 2 semaines/ : /Control en 2 semanas/);
  });

  it.each([
    [
      "fr",
      FIVE_PROBLEMS_FR,
      ["Insuffisance cardiaque", "Fibrillation auriculaire", "Hypothyroïdie", "Dépression", "Arthrose du genou"],
      [
        ["retient de l'eau", "furosémide 40 mg"],
        ["rythme est contrôlé", "apixaban 5 mg"],
        ["TSH était normale", "lévothyroxine 75 µg"],
        ["dort mieux", "sertraline 50 mg"],
        ["douleur est stable", "paracétamol 1 g"],
      ],
    ],
    [
      "es",
      FIVE_PROBLEMS_ES,
      ["Insuficiencia cardíaca", "Fibrilación auricular", "Hipotiroidismo", "Depresión", "Artrosis de rodilla"],
      [
        ["reteniendo líquido", "furosemida 40 mg"],
        ["ritmo está controlado", "apixabán 5 mg"],
        ["TSH fue normal", "levotiroxina 75 mcg"],
        ["Duerme mejor", "sertralina 50 mg"],
        ["dolor está estable", "paracetamol 1 g"],
      ],
    ],
  ] as const)("five problems in %s: each line its own assessment and plan, nobody else's", (language, dialogue, names, items) => {
    const section = ap(draft(dialogue, language));
    expect(headings(section.text)).toEqual(names);
    const lines = section.text.split("\n").filter((l) => /^\d+\. /.test(l));
    items.forEach(([assessment, plan], i) => {
      const line = lines[i] ?? "";
      expect(line).toContain(assessment);
      expect(line.indexOf("Plan:")).toBeGreaterThan(line.indexOf(assessment));
      expect(line.slice(line.indexOf("Plan:"))).toContain(plan);
      // Another problem's drug is not under this one.
      for (const [, other] of items.filter((_, j) => j !== i)) expect(line).not.toContain(other);
    });
  });

  it("bullets: the problem on its own line, its items as bullets", () => {
    const section = ap(draft(THREE_PROBLEMS_EN, "en", { style: "bullets" }, "male"));
    expect(section.text).toContain(
      "1. Hypertension.\n- It is not well controlled today.\n- Plan: Increase lisinopril to 20 mg daily.",
    );
  });

  it("separate layout: the assessment, then the plan, no problem headings", () => {
    const section = ap(draft(FIVE_PROBLEMS_EN, "en", { layout: "separate" }));
    expect(headings(section.text)).toEqual([]);
    const plan = section.text.indexOf("Plan:");
    expect(plan).toBeGreaterThan(section.text.indexOf("retaining fluid"));
    expect(section.text.indexOf("Start lasix")).toBeGreaterThan(plan);
  });

  it("keeps every sentence's evidence, and the text splits into the sentences the draft lists", () => {
    for (const [dialogue, language, sex] of [
      [FIVE_PROBLEMS_EN, "en", "female"],
      [THREE_PROBLEMS_EN, "en", "male"],
      [THREE_PROBLEMS_FR, "fr", "female"],
    ] as const) {
      for (const style of ["prose", "bullets"] as const) {
        const section = ap(draft(dialogue, language, { style }, sex));
        expect(splitSentences(section.text)).toEqual(section.sentences.map((s) => s.text));
        for (const s of section.sentences) {
          expect(s.supported).toBe(true);
          expect(s.evidence.length).toBeGreaterThan(0);
        }
        // A problem heading rests on the sentence that named the problem.
        const first = section.sentences.find((s) => /^1\. /.test(s.text));
        expect(first?.evidence[0]?.quote.toLowerCase()).toMatch(/hypertension|heart failure|hypertension|tension/);
      }
    }
  });
});

describe("the patient record in the note", () => {
  const dictated = `[doctor] this is a 60-year-old man here for cough . he says his cough started a week ago .
[patient] i've had a cough for a week .
[doctor] on his lung exam , i do appreciate some wheezing .
[doctor] i think he has bronchitis . i want him to use an albuterol inhaler .`;

  it("keeps the record's sex where the clinician said otherwise, and flags the sentence", () => {
    const d = draft(dictated, "en", {}, "female");
    const all = d.sections.flatMap((s) => s.sentences);
    const flagged = all.filter((s) => s.flags?.includes("pronoun_conflict"));
    expect(flagged.length).toBeGreaterThan(0);
    for (const s of all) expect(s.text).not.toMatch(/\b(?:he|him|his)\b/i);
    expect(all.map((s) => s.text).join(" ")).toMatch(/\b(?:she|her)\b/i);
  });

  it("does not flag a note whose pronouns agree with the record", () => {
    const all = draft(dictated, "en", {}, "male").sections.flatMap((s) => s.sentences);
    expect(all.some((s) => s.flags)).toBe(false);
  });

  it("names the patient once, then 'the patient'", () => {
    const named = `[doctor] maria gomez is a 45-year-old woman here for headaches .
[patient] i've had headaches every day for two weeks .
[doctor] maria gomez has no fever .
[doctor] i think maria gomez has tension headaches .`;
    const d = draft(named, "en", {}, "female", "Maria Gomez");
    const text = d.sections.map((s) => s.text).join("\n");
    expect(text.match(/Maria Gomez/gi)).toHaveLength(1);
    expect(text).toMatch(/The patient/);
  });
});
