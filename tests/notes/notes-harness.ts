import { sql } from "kysely";
import * as visitNotesRoute from "#app/routes/resources/api-visit-notes.ts";
import { handleGenerateNote, type NoteEnginePort } from "#app/services/notes/jobs/generate-note.server.ts";
import type { NoteEngine, NoteEngineInput } from "#app/services/notes/model.ts";
import { call, seedVisit, type VisitHarness, type Who } from "#tests/visits/harness.ts";

// Notes over the visits harness: org A with one user per role, org B with the outsider; visits
// with a real transcript row in the database, as the transcription job or an import leaves it.

/** A short primary-care visit, with the timed segments an ASR engine would give. */
export const SEGMENTS_EN = [
  { start: 0, end: 4.2, text: "Hi, what brings you in today?" },
  { start: 4.2, end: 9.8, text: "I've had a cough for two weeks and some chest tightness." },
  { start: 9.8, end: 13.1, text: "Any fever?" },
  { start: 13.1, end: 16.4, text: "No, I deny any fever or chills." },
  { start: 16.4, end: 22.9, text: "I take lisinopril 10 mg daily for my blood pressure." },
  { start: 22.9, end: 27.5, text: "Your blood pressure today is 132 over 84 and your lungs are clear." },
  { start: 27.5, end: 34.0, text: "This looks like a viral bronchitis. Let's start benzonatate 100 mg three times a day." },
  { start: 34.0, end: 38.0, text: "Come back in one week if the cough is not better." },
];

export const DIALOGUE_FR = [
  "[doctor] Bonjour, qu'est-ce qui vous amène aujourd'hui ?",
  "[patient] J'ai mal à la gorge depuis trois jours et un peu de fièvre.",
  "[doctor] Prenez-vous des médicaments ?",
  "[patient] Je prends du paracétamol 500 mg deux fois par jour.",
  "[doctor] La gorge est rouge, pas de ganglions. C'est une angine virale.",
  "[doctor] Continuez le paracétamol et revenez dans une semaine si ça ne va pas mieux.",
].join("\n");

/** A transcribed visit of org A (or `orgId`): one engine transcript version with segments, or an imported text. */
export async function transcribedVisit(
  h: VisitHarness,
  options: { orgId?: string; patientId?: string; language?: "en" | "fr" | "es"; text?: string } = {},
): Promise<string> {
  const language = options.language ?? "en";
  const visitId = await seedVisit(h, { orgId: options.orgId, patientId: options.patientId, language, status: "transcribed" });
  const orgId = options.orgId ?? h.a.orgId;
  const segments = options.text ? [] : SEGMENTS_EN;
  const text = options.text ?? SEGMENTS_EN.map((s) => s.text).join(" ");
  await sql`insert into public.transcriptions (org_id, visit_id, version, source, engine, language, text, segments)
    values (${orgId}, ${visitId}, 1, ${options.text ? "import" : "engine"}, ${options.text ? "import" : "test"}, ${language},
            ${text}, ${JSON.stringify(segments)}::jsonb)`.execute(h.db.kysely);
  return visitId;
}

export async function patientOf(h: VisitHarness, visitId: string): Promise<string> {
  const { rows } = await sql<{ patient_id: string }>`select patient_id from public.visits where id = ${visitId}`.execute(
    h.db.kysely,
  );
  return rows[0]?.patient_id ?? "";
}

/** POST /api/visits/:id/notes as `as`. */
export function requestNote(h: VisitHarness, visitId: string, body: unknown, as: Who = "clinician") {
  return call(h, visitNotesRoute, {
    method: "POST",
    path: `/api/visits/${visitId}/notes`,
    params: { id: visitId },
    json: body,
    as,
  });
}

/** Creates a note and runs its job in this process (no pg-boss worker): the note is a draft afterwards. */
export async function generatedNote(
  h: VisitHarness,
  engine: NoteEnginePort,
  options: { visitId?: string; templateId?: string; language?: "en" | "fr" | "es"; as?: Who } = {},
): Promise<{ noteId: string; visitId: string }> {
  const visitId = options.visitId ?? (await transcribedVisit(h));
  const created = await requestNote(
    h,
    visitId,
    { template_id: options.templateId ?? "builtin:soap", language: options.language },
    options.as,
  );
  if (created.status !== 202) throw new Error(`note not created: ${JSON.stringify(created.body)}`);
  const noteId = created.body.id as string;
  const outcome = await handleGenerateNote({ id: "test", data: { orgId: h.a.orgId, noteId } }, { db: h.db, engine });
  if (outcome !== "generated") throw new Error(`note not generated: ${outcome}`);
  return { noteId, visitId };
}

/**
 * A stand-in engine around another one, recording its inputs: it can fail, or hold until released
 * (so a test sees the note while it is generating), and reports progress section by section.
 */
export function recordingEngine(
  inner: NoteEngine,
  behaviour: { fail?: (call: number) => Error | null; hold?: Promise<void> } = {},
): NoteEngine & { inputs: NoteEngineInput[] } {
  const inputs: NoteEngineInput[] = [];
  return {
    id: inner.id,
    inputs,
    async generate(input) {
      inputs.push(input);
      const error = behaviour.fail?.(inputs.length);
      if (error) throw error;
      input.onProgress?.(0.25);
      if (behaviour.hold) await behaviour.hold;
      input.onProgress?.(0.75);
      return inner.generate(input);
    },
  };
}
