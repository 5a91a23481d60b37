// The extractive engine end to end on small visits: sections, options, evidence, languages.
import { describe, expect, it } from "vitest";
import {
  createExtractiveEngine,
  generateExtractive,
  piecesFromDialogue,
  renderNoteText,
} from "#app/services/notes/engines/extractive/index.ts";
import type { NoteDraft, NoteLanguage, NoteTemplate } from "#app/services/notes/model.ts";
import { BACK_PAIN_FR, CHEST_PAIN_EN, DENTAL_EN, SOAP_EN, SORE_THROAT_ES, section, template } from "./extractive-fixtures.ts";

function run(
  t: NoteTemplate,
  dialogue: string,
  language: NoteLanguage = t.language,
  extra: Partial<Parameters<typeof generateExtractive>[0]> = {},
): NoteDraft {
  return generateExtractive({ template: t, transcript: piecesFromDialogue(dialogue), language, ...extra });
}

/** Letters and digits only: quotes keep the words said, with tidied spacing. */
const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "");

const textOf = (draft: NoteDraft, key: string) => draft.sections.find((s) => s.key === key)?.text ?? "";

describe("extractive engine: an English visit", () => {
  const draft = run(SOAP_EN, CHEST_PAIN_EN);

  it("writes each section from what was said, in note style", () => {
    expect(draft.engine).toBe("extractive");
    expect(draft.language).toBe("en");
    expect(textOf(draft, "cc")).toBe("Chest pain.");
    expect(textOf(draft, "hpi")).toContain("Reports chest pain for 3 days");
    expect(textOf(draft, "ros")).toContain("- Respiratory: Denies shortness of breath.");
    expect(textOf(draft, "ros")).toContain("- Constitutional: Denies fever.");
    expect(textOf(draft, "meds")).toBe("- Lisinopril 20 mg daily.\n- Metformin 500 mg twice a day.");
    expect(textOf(draft, "allergies")).toBe("Penicillin.");
    expect(textOf(draft, "exam")).toContain("Blood pressure: 150/90.");
    expect(textOf(draft, "exam")).toContain("Heart rate: 88.");
    expect(textOf(draft, "exam")).toContain("Lungs: Clear and no murmur");
    expect(textOf(draft, "assessment")).toContain("likely angina");
    expect(textOf(draft, "plan")).toContain("Ekg and a stress test");
    expect(textOf(draft, "plan")).toContain("aspirin 81 mg daily");
  });

  it("leaves a section empty when nothing was said for it (never 'not discussed')", () => {
    const results = draft.sections.find((s) => s.key === "results");
    expect(results).toEqual({ key: "results", title: "Results", text: "", sentences: [] });
    expect(renderNoteText(SOAP_EN, draft)).not.toMatch(/Results|not discussed|none reported/i);
  });

  it("gives every sentence evidence with audio time and the words said", () => {
    const pieces = piecesFromDialogue(CHEST_PAIN_EN);
    for (const sentence of draft.sections.flatMap((s) => s.sentences)) {
      expect(sentence).toMatchObject({ source: "transcript", supported: true });
      expect(sentence.evidence.length).toBeGreaterThan(0);
      for (const evidence of sentence.evidence) {
        const piece = pieces.find((p) => p.start <= evidence.start && evidence.end <= p.end);
        expect(piece, evidence.quote).toBeDefined();
        expect(squash(piece?.text ?? "")).toContain(squash(evidence.quote));
      }
    }
    const denies = draft.sections.flatMap((s) => s.sentences).find((s) => s.text.includes("Denies fever"));
    expect(denies?.evidence.map((e) => e.quote)).toEqual(["any fever or shortness of breath?", "no."]);
  });

  it("is deterministic", () => {
    expect(run(SOAP_EN, CHEST_PAIN_EN)).toEqual(draft);
  });

  it("invents nothing: no number or drug that was not said", () => {
    const note = renderNoteText(SOAP_EN, draft);
    for (const n of note.match(/\d+/g) ?? []) expect(CHEST_PAIN_EN.replace("twenty", "20").replace("three", "3")).toContain(n);
    expect(note).not.toMatch(/ibuprofen|metoprolol|nitroglycerin/i);
  });
});

describe("extractive engine: section options", () => {
  it("honours bullets and prose", () => {
    const prose = run(template("en", [section("plan", "Plan", "plan", { style: "prose" })]), CHEST_PAIN_EN);
    const bullets = run(template("en", [section("plan", "Plan", "plan", { style: "bullets" })]), CHEST_PAIN_EN);
    expect(prose.sections[0]?.text.startsWith("- ")).toBe(false);
    expect(bullets.sections[0]?.text.split("\n").every((line) => line.startsWith("- "))).toBe(true);
  });

  it("writes less when concise than when detailed", () => {
    const long = [
      "my knee pain started two weeks ago after a fall on the ice .",
      "the swelling in my ankle gets worse at night when i lie down .",
      "i take ibuprofen 400 mg for the headaches in the morning .",
      "my back has been stiff since i moved furniture last spring .",
      "i have trouble sleeping because my shoulder aches constantly .",
      "my appetite dropped and i lost about ten pounds this year .",
      "the cough started in january with some yellow phlegm and chills .",
      "i feel dizzy when i stand up quickly from the couch .",
      "my wrist went numb twice while typing at work last week .",
      "my stomach hurts after spicy meals and coffee .",
    ]
      .map((line) => `[patient] ${line}`)
      .join("\n");
    const words = (verbosity: "concise" | "detailed") =>
      run(template("en", [section("hpi", "HPI", "hpi", { verbosity })]), long).sections[0]?.text.split(/\s+/).length ?? 0;
    expect(words("concise")).toBeLessThan(words("detailed"));
  });

  it("copies fixed text verbatim with source template, even when nothing was said", () => {
    const t = template("en", [
      section("consent", "Consent", "other", { fixedText: "Risks and benefits were discussed. Consent given." }),
    ]);
    const draft = run(t, "[doctor] hello .");
    expect(draft.sections[0]?.sentences).toEqual([
      { text: "Risks and benefits were discussed. Consent given.", evidence: [], supported: true, source: "template" },
    ]);
  });

  it("carries a persistent section from the last signed note only when the visit says nothing new", () => {
    const t = template("en", [section("meds", "Medications", "medications", { persistent: true, style: "bullets" })]);
    const previous = { meds: "- Atorvastatin 40 mg daily.\n- Aspirin 81 mg daily." };
    const quiet = run(t, "[doctor] how is the weather ?\n[patient] sunny .", "en", { context: { previous } });
    expect(quiet.sections[0]?.sentences.map((s) => [s.text, s.source])).toEqual([
      ["Atorvastatin 40 mg daily.", "previous"],
      ["Aspirin 81 mg daily.", "previous"],
    ]);
    const news = run(t, CHEST_PAIN_EN, "en", { context: { previous } });
    expect(news.sections[0]?.sentences.every((s) => s.source === "transcript")).toBe(true);
    const notPersistent = run(template("en", [section("meds", "Medications", "medications")]), "[patient] sunny .", "en", {
      context: { previous },
    });
    expect(notPersistent.sections[0]?.text).toBe("");
  });

  it("fills placeholders only from what was said", () => {
    const t = template("en", [
      section("vitals", "Vitals", "other", { placeholders: ["blood pressure", "temperature", "tooth number"] }),
    ]);
    const draft = run(t, CHEST_PAIN_EN);
    const texts = draft.sections[0]?.sentences.map((s) => s.text) ?? [];
    expect(texts).toContain("Blood pressure: 150/90.");
    expect(texts.join(" ")).not.toMatch(/Temperature|Tooth/);
  });

  it("shows titles per header mode when rendered", () => {
    const t = template("en", [
      section("a", "Always", "results", { header: "always" }),
      section("b", "With content", "plan", { header: "with_content" }),
      section("c", "Never", "assessment", { header: "never" }),
      section("d", "Empty", "results", { header: "with_content" }),
    ]);
    const text = renderNoteText(t, run(t, CHEST_PAIN_EN));
    expect(text.startsWith("Always\n\nWith content\n\n- ") || text.startsWith("Always\n\nWith content\n\n")).toBe(true);
    expect(text).not.toContain("Never");
    expect(text).toContain("likely angina");
    expect(text).not.toContain("Empty");
  });

  it("routes a custom section by its title, and falls back when a kind is missing", () => {
    const t = template("en", [
      section("s", "Subjective", "hpi"),
      section("o", "Objective findings", "other"),
      section("p", "Plan", "plan"),
    ]);
    const draft = run(t, CHEST_PAIN_EN);
    expect(textOf(draft, "o")).toContain("Blood pressure: 150/90.");
    expect(textOf(draft, "s")).toContain("Denies");
  });

  it("regenerates only the sections asked, reports progress, and stops when aborted", async () => {
    const progress: number[] = [];
    const only = run(SOAP_EN, CHEST_PAIN_EN, "en", { onlySections: ["plan"], onProgress: (d) => progress.push(d) });
    expect(only.sections.map((s) => s.key)).toEqual(["plan"]);
    expect(only.sections[0]).toEqual(run(SOAP_EN, CHEST_PAIN_EN).sections.find((s) => s.key === "plan"));
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    const controller = new AbortController();
    controller.abort();
    const engine = createExtractiveEngine();
    expect(engine.id).toBe("extractive");
    await expect(
      engine.generate({ template: SOAP_EN, transcript: [], language: "en", signal: controller.signal }),
    ).rejects.toThrow();
  });

  it("handles ASR segments without speakers", () => {
    const draft = generateExtractive({
      template: SOAP_EN,
      language: "en",
      transcript: [
        { start: 0, end: 4, text: "I have had a headache for two weeks." },
        { start: 4, end: 9, text: "Your blood pressure is 140 over 85. I am going to start lisinopril 10 mg daily." },
      ],
    });
    expect(textOf(draft, "hpi")).toContain("headache for 2 weeks");
    expect(textOf(draft, "exam")).toContain("Blood pressure: 140/85.");
    expect(textOf(draft, "plan")).toContain("lisinopril 10 mg daily");
    const plan = draft.sections.find((s) => s.key === "plan")?.sentences[0];
    expect(plan?.evidence[0]?.start).toBeGreaterThanOrEqual(4);
  });

  it("handles unpunctuated ASR speech without speakers", () => {
    const draft = generateExtractive({
      template: SOAP_EN,
      language: "en",
      transcript: [
        { start: 0, end: 6, text: "good morning what brings you in today" },
        { start: 6, end: 14, text: "i have had a sore throat and a cough for five days and some fever at night" },
        { start: 14, end: 18, text: "any shortness of breath" },
        { start: 18, end: 19, text: "no" },
        { start: 19, end: 30, text: "your temperature is one hundred point four your throat is red with swollen tonsils" },
        {
          start: 30,
          end: 40,
          text: "i think this is strep throat i am going to prescribe amoxicillin five hundred milligrams three times a day",
        },
      ],
    });
    expect(textOf(draft, "cc")).toBe("Sore throat.");
    expect(textOf(draft, "hpi")).toContain("has had a sore throat and a cough for 5 days");
    expect(textOf(draft, "ros")).toContain("Denies shortness of breath.");
    expect(textOf(draft, "exam")).toContain("Temperature: 100.4.");
    expect(textOf(draft, "exam")).toContain("Throat: Red with swollen tonsils");
    expect(textOf(draft, "assessment")).toBe("This is strep throat.");
    expect(textOf(draft, "plan")).toBe("- Prescribe amoxicillin 500 mg 3 times daily.");
  });

  it("writes an empty note from an empty transcript", () => {
    const draft = run(SOAP_EN, "");
    expect(draft.sections.every((s) => s.text === "" && s.sentences.length === 0)).toBe(true);
  });
});

describe("extractive engine: French and Spanish", () => {
  it("writes a French note from a French visit", () => {
    const t = template("fr", [
      section("motif", "Motif de consultation", "chief_complaint"),
      section("hma", "Histoire de la maladie", "hpi"),
      section("ros", "Revue des systèmes", "ros", { style: "bullets" }),
      section("ttt", "Traitements", "medications", { style: "bullets" }),
      section("exam", "Examen clinique", "exam"),
      section("eval", "Évaluation", "assessment"),
      section("plan", "Plan", "plan"),
    ]);
    const draft = run(t, BACK_PAIN_FR);
    expect(draft.language).toBe("fr");
    expect(textOf(draft, "motif")).toBe("Mal au dos.");
    expect(textOf(draft, "hma")).toContain("Douleur au dos depuis 2 semaines");
    expect(textOf(draft, "ros")).toContain("Pas de fièvre.");
    expect(textOf(draft, "ros")).toContain("Pas de nausées.");
    expect(textOf(draft, "ttt")).toBe("- Paracétamol 1000 mg 3 fois par jour.");
    expect(textOf(draft, "exam")).toContain("Tension artérielle: 130/80.");
    expect(textOf(draft, "exam")).toContain("Douleur à la palpation");
    expect(textOf(draft, "eval")).toContain("lombalgie mécanique");
    expect(textOf(draft, "plan")).toContain("ibuprofène 400 mg");
  });

  it("writes a Spanish note from a Spanish visit", () => {
    const t = template("es", [
      section("motivo", "Motivo de consulta", "chief_complaint"),
      section("ea", "Enfermedad actual", "hpi"),
      section("ros", "Revisión por sistemas", "ros"),
      section("med", "Medicación", "medications"),
      section("exp", "Exploración", "exam"),
      section("plan", "Plan", "assessment_plan"),
    ]);
    const draft = run(t, SORE_THROAT_ES);
    expect(textOf(draft, "motivo")).toBe("Dolor de cabeza.");
    expect(textOf(draft, "ea")).toContain("Refiere dolor de cabeza desde hace 3 días");
    expect(textOf(draft, "ros")).toContain("Niega fiebre o tos.");
    expect(textOf(draft, "med")).toBe("Ibuprofeno 600 mg cada 8 horas.");
    expect(textOf(draft, "exp")).toContain("Presión arterial: 120/75.");
    expect(textOf(draft, "exp")).toContain("Garganta: Enrojecida");
    expect(textOf(draft, "plan")).toContain("faringitis viral");
    expect(textOf(draft, "plan")).toContain("paracetamol 1 g cada 8 horas");
  });
});

describe("extractive engine: dental", () => {
  it("puts tooth numbers and periodontal measurements in their sections", () => {
    const t = template("en", [
      section("cc", "Chief complaint", "chief_complaint"),
      section("hpi", "History", "hpi"),
      section("dental", "Dental exam", "dental_exam"),
      section("perio", "Periodontal", "periodontal"),
      section("plan", "Plan", "plan"),
    ]);
    const draft = run(t, DENTAL_EN);
    expect(textOf(draft, "hpi")).toContain("lower left molar has been sensitive to cold for a month");
    expect(textOf(draft, "dental")).toContain("Tooth number 19 has a large cavity on the occlusal surface.");
    expect(textOf(draft, "perio")).toContain("5 mm with bleeding on probing");
    expect(textOf(draft, "plan")).toContain("crown on tooth 19");
    expect(textOf(draft, "plan")).toContain("6 months");
  });
});

describe("extractive engine: the built-in SOAP shape on a short visit", () => {
  const soap = template("en", [
    section("vitals", "Vital signs", "vitals", { style: "bullets" }),
    section("objective", "Objective", "exam"),
    section("assessment", "Assessment", "assessment"),
    section("plan", "Plan", "plan", { style: "bullets" }),
  ]);
  const draft = run(
    soap,
    [
      "[doctor] Your blood pressure today is 132 over 84 and your lungs are clear.",
      "[doctor] This looks like a viral bronchitis. Let's start benzonatate 100 mg three times a day.",
    ].join("\n"),
  );

  it("keeps an exam finding said in the same sentence as a vital sign, and a diagnosis said as 'looks like a'", () => {
    expect(textOf(draft, "vitals")).toBe("- Blood pressure: 132/84.");
    expect(textOf(draft, "objective")).toContain("lungs are clear");
    expect(textOf(draft, "assessment")).toBe("Likely viral bronchitis.");
    expect(textOf(draft, "plan")).toContain("Start benzonatate 100 mg 3 times daily");
  });
});
