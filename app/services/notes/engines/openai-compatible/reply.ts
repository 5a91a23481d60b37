import { z } from "zod";
import { NoteEngineError } from "#app/services/notes/engines/errors.ts";
import type { Evidence, NoteSentence, TranscriptPiece } from "#app/services/notes/model.ts";

// Strict on what the note is made of (a list of sentences with text), lenient on evidence: a cited
// line the model got wrong only costs that sentence its support, never the section.
const SectionReplySchema = z.object({
  sentences: z.array(
    z.object({
      text: z.string(),
      // Small models in json_object mode sometimes cite one line as a bare number.
      evidence_lines: z.unknown().transform((v) => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v])),
    }),
  ),
});

// The placeholders the prompt forbids (en/fr/es): when a model writes one anyway and cites nothing, it is dropped
// so an empty section stays empty (issue 6: never "not discussed").
const FILLER =
  /^(?:n\/?a|none|nil|not (?:discussed|mentioned|documented|reported|assessed|applicable)|none (?:reported|mentioned|discussed|noted)|no information|non (?:abordé|mentionné|discuté|renseigné|évalué)e?s?|aucun(?:e)? (?:information|donnée)s?|no (?:se )?(?:mencion|coment|discut|document|report)\w*|sin datos|ninguno)\.?$/i;

function withoutFences(content: string): string {
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(content.trim());
  return fenced?.[1] ?? content;
}

function lineNumber(value: unknown): number | null {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && Number.isInteger(n) ? n : null;
}

/** Cited line numbers → the transcript pieces they name; numbers outside 1…length are ignored. */
export function evidenceFor(lines: readonly unknown[], transcript: readonly TranscriptPiece[]): Evidence[] {
  const valid = new Set<number>();
  for (const value of lines) {
    const n = lineNumber(value);
    if (n !== null && n >= 1 && n <= transcript.length) valid.add(n);
  }
  return [...valid]
    .sort((a, b) => a - b)
    .map((n) => {
      const piece = transcript[n - 1] as TranscriptPiece;
      return { start: piece.start, end: piece.end, quote: piece.text.trim() };
    });
}

/** The model's content for one section → transcript sentences; a reply we cannot read is engine_bad_response. */
export function sentencesFromReply(content: string, transcript: readonly TranscriptPiece[]): NoteSentence[] {
  let json: unknown;
  try {
    json = JSON.parse(withoutFences(content));
  } catch (error) {
    throw new NoteEngineError("engine_bad_response", "section reply is not JSON", { cause: error });
  }
  const parsed = SectionReplySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new NoteEngineError(
      "engine_bad_response",
      `unexpected section reply at ${issue?.path.join(".") || "root"}: ${issue?.message ?? "invalid"}`,
    );
  }
  const sentences: NoteSentence[] = [];
  for (const raw of parsed.data.sentences) {
    // The model sometimes writes the bullet itself; the section text adds it for bullet sections.
    const text = raw.text
      .replace(/^\s*(?:[-•*]|\d+[.)])\s+/, "")
      .replace(/\s+/g, " ")
      .trim();
    if (!text) continue;
    const evidence = evidenceFor(raw.evidence_lines, transcript);
    if (evidence.length === 0 && FILLER.test(text)) continue;
    sentences.push({ text, evidence, supported: evidence.length > 0, source: "transcript" });
  }
  return sentences;
}
