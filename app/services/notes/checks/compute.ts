// Every check a note carries (issue 27 "Checks on every draft"), computed from the note, its
// transcript and the transcript's quality — the same for every engine, since it reads only what
// the engine wrote. Isomorphic and pure: the store (checks.server.ts) keeps them.
import { lowConfidenceWordsFor } from "#app/components/notes/evidence.ts";
import type { NoteCheckKind } from "#app/db/schema.ts";
import type { TranscriptQuality } from "#app/services/visits/transcript-quality.ts";
import type { NoteLanguage, NoteSectionDraft, NoteTemplate, Omission, TranscriptPiece } from "../model.ts";
import { findContradictions } from "./contradictions.ts";

export interface CheckDraft {
  kind: NoteCheckKind;
  /** Contradiction: allergy, denies_reports, …; omission: its kind; unsupported: sentence or poor_transcript. */
  code: string;
  section: string | null;
  sentence: string | null;
  text: string;
}

export interface CheckInput {
  template: Pick<NoteTemplate, "sections">;
  sections: readonly NoteSectionDraft[];
  language: NoteLanguage;
  transcript: readonly TranscriptPiece[];
  omissions: readonly Omission[];
  quality: TranscriptQuality | null;
}

export function computeChecks(input: CheckInput): CheckDraft[] {
  const out: CheckDraft[] = [];
  // A note drafted from a transcript that is mostly wrong rests on nothing, whatever each sentence says.
  if (input.quality?.tier === "poor")
    out.push({
      kind: "unsupported",
      code: "poor_transcript",
      section: null,
      sentence: null,
      text: input.quality.reasons.join(","),
    });
  const kinds = new Map(input.template.sections.map((s) => [s.key, s.kind]));
  for (const c of findContradictions(input.sections, kinds, input.language, input.transcript))
    out.push({
      kind: "contradiction",
      code: c.against === "transcript" ? `${c.code}_transcript` : c.code,
      section: c.section,
      sentence: c.sentence,
      text: c.other,
    });
  for (const section of input.sections) {
    for (const s of section.sentences) {
      if (s.source !== "transcript") continue;
      if (!s.supported) out.push({ kind: "unsupported", code: "sentence", section: section.key, sentence: s.text, text: s.text });
      const unsure = lowConfidenceWordsFor(s.evidence, input.transcript);
      if (unsure.length)
        out.push({ kind: "low_confidence", code: "words", section: section.key, sentence: s.text, text: unsure.join(", ") });
    }
  }
  for (const o of input.omissions) out.push({ kind: "omission", code: o.kind, section: null, sentence: null, text: o.text });
  return out;
}
