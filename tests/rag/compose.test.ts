import { describe, expect, it } from "vitest";
import { composeAnswer } from "#app/services/rag/answer/compose.ts";
import { questionLanguage, sectionRoute } from "#app/services/rag/answer/intent.ts";
import { thirdPerson } from "#app/services/rag/answer/person.ts";
import { expandQuery } from "#app/services/rag/expand.ts";
import type { RankedPassage } from "#app/services/rag/model.ts";

// Issue 28 "Answers, not fragments": the embedded engine's composition, pure (answer/compose.ts,
// intent.ts, person.ts): the section a question names first, the higher authority's words with
// where they come from when the recording disagrees, the third person, de-duplication, the
// question's language for the engine's own words.

const VISIT = "11111111-1111-4111-8111-111111111111";

function passage(text: string, over: Partial<RankedPassage> = {}): RankedPassage {
  return {
    id: crypto.randomUUID(),
    table: "transcriptions",
    sourceId: VISIT,
    field: "text",
    label: "",
    noteStatus: null,
    visitId: VISIT,
    patientId: null,
    visitName: "Follow-up",
    date: "2026-11-27",
    start: null,
    end: null,
    language: "en",
    text,
    authority: 1,
    patientName: "Jane Roe",
    signedAt: null,
    score: 1,
    ...over,
  };
}

const note = (field: string, label: string, text: string, over: Partial<RankedPassage> = {}) =>
  passage(text, { table: "doctor_notes", sourceId: "note-1", field, label, noteStatus: "signed", authority: 4, ...over });

function compose(question: string, passages: RankedPassage[], language: "en" | "fr" | "es" = "en") {
  const q = expandQuery(question);
  return composeAnswer({
    question,
    terms: q.terms,
    expansions: q.expansions,
    wantsAmount: q.wantsAmount,
    passages,
    language,
    timeZone: "Pacific/Auckland",
  }).answer;
}

describe("what a question asks", () => {
  it("names the note section in en, fr and es", () => {
    expect(sectionRoute("What is the plan?")?.intent).toBe("plan");
    expect(sectionRoute("What is he allergic to?")?.intent).toBe("allergies");
    expect(sectionRoute("Quels médicaments prend-il ?")?.intent).toBe("medications");
    expect(sectionRoute("¿Cuál es el diagnóstico?")?.intent).toBe("assessment");
    expect(sectionRoute("¿Tiene alergias?")?.intent).toBe("allergies");
    expect(sectionRoute("What dose of lisinopril is she on?")).toBeNull();
  });

  it("tells the question's language, else keeps the reader's", () => {
    expect(questionLanguage("Quel est le plan pour le genou ?", "en")).toBe("fr");
    expect(questionLanguage("¿Cuál es el plan para la rodilla?", "en")).toBe("es");
    expect(questionLanguage("What is the plan?", "fr")).toBe("en");
    expect(questionLanguage("lisinopril", "es")).toBe("es");
  });
});

describe("third person", () => {
  it("turns the patient's I and the clinician's you into the patient", () => {
    expect(thirdPerson("[patient] Um, I'm allergic to sulfa, my skin breaks out.", "Jane Roe", "en")).toBe(
      "Jane Roe is allergic to sulfa, Jane Roe's skin breaks out.",
    );
    expect(thirdPerson("[doctor] I see you take lisinopril 10 mg.", "the patient", "en")).toBe(
      "I see the patient takes lisinopril 10 mg.",
    );
    expect(thirdPerson("[patient] Je prends du paracétamol pour mon genou.", "le patient", "fr")).toBe(
      "Le patient prend du paracétamol pour son genou.",
    );
    expect(thirdPerson("Tomo metformina, soy alérgica a la penicilina.", "el paciente", "es")).toBe(
      "El paciente toma metformina, el paciente es alérgica a la penicilina.",
    );
  });
});

describe("composed answers", () => {
  it("answers an allergy question from the corrected section and says the recording differed", () => {
    const answer = compose("What is he allergic to?", [
      passage("[patient] I am allergic to anything with sulfa in it, it gives me hives."),
      note("allergies", "Allergies", "Penicillin (rash).", { noteStatus: "draft", authority: 3 }),
    ]);
    expect(answer).toBe(
      "The note corrected by the clinician (27 Nov) says: Penicillin (rash). [2] (the recording said otherwise)",
    );
  });

  it("dates a signed note in the organisation's zone", () => {
    const answer = compose("What is he allergic to?", [
      note("allergies", "Allergies", "Penicillin (rash).", { signedAt: "2026-11-28T12:30:00Z" }),
      passage("[patient] I am allergic to anything with sulfa in it, it gives me hives."),
    ]);
    // 12:30 UTC on 28 Nov is 01:30 on 29 Nov in Auckland.
    expect(answer).toBe("The signed note of 29 Nov says: Penicillin (rash). [1] (the recording said otherwise)");
  });

  it("reads the whole section a question names, not one sentence of it", () => {
    const plan = note("plan", "Plan", "Start amoxicillin 500 mg three times a day.", {
      section: ["Start amoxicillin 500 mg three times a day.", "Chest X-ray if no better in a week."],
    });
    const answer = compose("What is the plan?", [passage("[doctor] Let's plan to see how it goes."), plan]);
    expect(answer).toBe("Start amoxicillin 500 mg three times a day. Chest X-ray if no better in a week. [2]");
  });

  it("prefers the note over the transcript for the same fact and drops what repeats it", () => {
    const answer = compose("What dose of lisinopril is she on?", [
      passage("[patient] I take lisinopril 10 mg daily."),
      note("medications", "Medications", "Lisinopril 20 mg daily.", { noteStatus: "draft", authority: 2 }),
      note("plan", "Plan", "Lisinopril 20 mg daily.", { noteStatus: "draft", authority: 2 }),
    ]);
    expect(answer.startsWith("The draft note of 27 Nov says: Lisinopril 20 mg daily. [2]")).toBe(true);
    expect(answer.match(/Lisinopril 20 mg/g)).toHaveLength(1);
  });

  it("writes its own words in the question's language (fr, es)", () => {
    const fr = compose(
      "À quoi est-il allergique ?",
      [
        passage("[patient] Je suis allergique aux sulfamides, j'ai des plaques partout.", { language: "fr" }),
        note("allergies", "Allergies", "Pénicilline (éruption).", { language: "fr", signedAt: "2026-11-27T20:00:00Z" }),
      ],
      "en",
    );
    expect(fr).toBe("La note signée du 28 nov. indique : Pénicilline (éruption). [2] (l'enregistrement disait autre chose)");
    const es = compose(
      "¿Cuál es el plan?",
      [note("plan", "Plan", "Iniciar amoxicilina 500 mg cada 8 horas.", { language: "es", noteStatus: "draft", authority: 2 })],
      "en",
    );
    expect(es).toBe("Iniciar amoxicilina 500 mg cada 8 horas. [1]");
    const spoken = compose(
      "¿Qué toma para la presión?",
      [passage("[patient] Tomo losartán para la presión.", { language: "es" })],
      "es",
    );
    expect(spoken).toBe("Jane Roe toma losartán para la presión. [1]");
  });

  it("stays honest: nothing relevant is the translated 'do not say'", () => {
    expect(compose("What did the MRI show?", [passage("Your lungs are clear.")], "fr")).toBe("Le dossier ne le dit pas.");
  });
});
