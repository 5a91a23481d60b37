import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { extractiveAnswer } from "#app/services/rag/engines/extractive.ts";
import { createOpenAiCompatibleAnswerer } from "#app/services/rag/engines/openai-compatible.server.ts";
import type { AnswerInput } from "#app/services/rag/engines/types.ts";
import { expandQuery } from "#app/services/rag/expand.ts";
import type { RankedPassage } from "#app/services/rag/model.ts";
import { chooseScope, isProductQuestion } from "#app/services/rag/scope.ts";
import { chatCompletion, chatError, createOpenAiChatMock } from "#tests/mocks/openai-chat.ts";

const passage = (text: string, over: Partial<RankedPassage> = {}): RankedPassage => ({
  id: crypto.randomUUID(),
  table: "transcriptions",
  sourceId: crypto.randomUUID(),
  field: "segment",
  label: "",
  noteStatus: null,
  visitId: null,
  patientId: null,
  visitName: "Follow-up",
  date: "2026-03-10",
  start: null,
  end: null,
  language: "en",
  text,
  authority: 1,
  patientName: "",
  signedAt: null,
  score: 1,
  ...over,
});

const input = (question: string, texts: string[], over: Partial<AnswerInput> = {}): AnswerInput => ({
  question,
  query: expandQuery(question),
  passages: texts.map((t) => passage(t)),
  scope: "records",
  language: "en",
  ...over,
});

const numbersOf = (text: string) => (text.replace(/\[\d+\]/g, "").match(/\d+(?:[.,]\d+)?/g) ?? []).sort();

describe("query expansion", () => {
  it("adds the lay word's, brand's and ICD-10-CM synonym's equivalents", () => {
    expect(expandQuery("Is she on a water pill?").expansions).toEqual(expect.arrayContaining(["furosemide", "lasix"]));
    expect(expandQuery("How is his sugar?").expansions).toEqual(expect.arrayContaining(["diabetes", "a1c"]));
    expect(expandQuery("Did he see the heart doctor?").expansions).toEqual(expect.arrayContaining(["cardiology"]));
    expect(expandQuery("Any history of chickenpox?").expansions).toContain("varicella");
    expect(expandQuery("Still on Aleve?").expansions).toContain("naproxen");
    expect(expandQuery("Une radio du genou ?").expansions).toContain("radiographie");
    expect(expandQuery("What dose of lisinopril?").phrases).toEqual([]);
    expect(expandQuery("knee x-ray result").phrases).toContain("knee x-ray");
  });
});

describe("help classifier", () => {
  it("sends product questions to help and clinical ones to records, in three languages", () => {
    for (const q of [
      "How do I invite a colleague?",
      "Comment signer une note ?",
      "¿Cómo cambio el idioma?",
      "Where are my templates?",
    ]) {
      expect(isProductQuestion(q), q).toBe(true);
    }
    for (const q of ["What dose of lisinopril is she on?", "Quel traitement pour la douleur ?", "¿Tiene alergias el paciente?"]) {
      expect(isProductQuestion(q), q).toBe(false);
    }
    expect(chooseScope({ question: "How do I invite a colleague?", filters: {}, patientId: "p" })).toBe("records");
    expect(chooseScope({ question: "lisinopril", filters: {}, scope: "help" })).toBe("help");
    expect(chooseScope({ question: "How do I invite a colleague?", filters: {} })).toBe("help");
  });
});

describe("extractive answerer", () => {
  it("answers with source sentences only, each with its marker", () => {
    const out = extractiveAnswer(
      input("What dose of lisinopril did we start?", [
        "Your blood pressure today is 132 over 84.",
        "Let's start lisinopril 10 mg daily.",
        "Come back in one week.",
      ]),
    );
    expect(out.answer).toBe("Let's start lisinopril 10 mg daily. [2]");
    expect(out.unanswered).toBe(false);
  });

  it("never writes a number or drug that is not in the passage it cites", () => {
    const texts = [
      "I take lisinopril 10 mg daily for my blood pressure.",
      "Started furosemide 20 mg daily for the swelling.",
      "Metformin 500 mg twice a day, A1c was 7.2 in March.",
      "Knee X-ray showed mild osteoarthritis, no fracture.",
      "Benzonatate 100 mg three times a day for the cough.",
    ];
    const drugs = ["lisinopril", "furosemide", "metformin", "benzonatate", "lasix", "losartan"];
    for (const q of [
      "water pill dose?",
      "How is her sugar?",
      "What did the knee X-ray show?",
      "blood pressure medicine",
      "cough",
    ]) {
      const i = input(q, texts);
      const out = extractiveAnswer(i);
      for (const line of out.answer.split("\n")) {
        const cited = [...line.matchAll(/\[(\d+)\]/g)].map((m) => i.passages[Number(m[1]) - 1]?.text ?? "");
        const source = cited.join(" ").toLowerCase();
        for (const n of numbersOf(line)) expect(source, `${q}: ${n}`).toContain(n);
        for (const d of drugs) if (line.toLowerCase().includes(d)) expect(source, `${q}: ${d}`).toContain(d);
      }
    }
  });

  it("says the records do not say (translated) when nothing relevant is found", () => {
    const none = input("Any penicillin allergy?", ["Your lungs are clear."], { language: "fr" });
    expect(extractiveAnswer(none)).toEqual({ answer: "Le dossier ne le dit pas.", usedFallback: false, unanswered: true });
    const help = extractiveAnswer(input("xylophone", [], { scope: "help" }));
    expect(help.answer.split("\n")[0]).toBe("I do not have enough information in help docs to answer that precisely.");
    expect(help.answer.split("\n")[1]).toMatch(/^Try:/);
  });
});

describe("OpenAI-compatible answerer", () => {
  const mock = createOpenAiChatMock();
  beforeAll(() => mock.listen());
  afterAll(() => mock.close());
  beforeEach(() => mock.reset());
  const engine = createOpenAiCompatibleAnswerer({ baseUrl: "https://llm.example.test/v1", model: "m", timeoutMs: 2000 });
  const texts = ["I take lisinopril 10 mg daily.", "Started furosemide 20 mg daily."];

  it("sends numbered sources and keeps a grounded reply", async () => {
    mock.respond(() => chatCompletion("She takes lisinopril 10 mg daily [1]."));
    const out = await engine.answer(input("lisinopril dose?", texts));
    expect(out).toEqual({ answer: "She takes lisinopril 10 mg daily [1].", usedFallback: false, unanswered: false });
    const user = mock.calls[0]?.body.messages.find((m) => m.role === "user")?.content ?? "";
    expect(user).toContain("[1] (2026-03-10, Follow-up, transcript (recording)) I take lisinopril 10 mg daily.");
    expect(user).toContain("[2]");
  });

  it("falls back to the extractive answer on an error or an ungrounded reply", async () => {
    mock.respond(() => chatError(500, "down"));
    const failed = await engine.answer(input("lisinopril dose?", texts));
    expect(failed).toMatchObject({ usedFallback: true, answer: "The patient takes lisinopril 10 mg daily. [1]" });
    mock.respond(() => chatCompletion("She takes lisinopril 40 mg daily [1]."));
    expect((await engine.answer(input("lisinopril dose?", texts))).usedFallback).toBe(true);
    mock.respond(() => chatCompletion("She takes lisinopril daily."));
    expect((await engine.answer(input("lisinopril dose?", texts))).usedFallback).toBe(true);
  });
});
