import type { NoteDraft, NoteEngine, NoteEngineInput, NoteSectionDraft } from "../../model.ts";
import { analyse, type PronounFix } from "./candidates.ts";
import { composeSection, nameState, sectionKinds } from "./compose.ts";
import { lexiconFor } from "./lexicon.ts";
import { guessGender } from "./person.ts";
import { transcriptSentences } from "./sentences.ts";

export const EXTRACTIVE_ENGINE_ID = "extractive";

/** Deterministic and offline: the same transcript and template always give the same note. */
export function generateExtractive(input: NoteEngineInput): NoteDraft {
  const { template, transcript, language, context } = input;
  input.signal?.throwIfAborted();
  const lexicon = lexiconFor(language);
  const sentences = transcriptSentences(transcript, language, lexicon);
  const clinicianSpeech = sentences.filter((s) => s.role !== "patient").map((s) => s.folded);
  const gender = guessGender(context?.patient?.sex, clinicianSpeech, language);
  // The record's sex wins; where the clinician's pronouns say otherwise they are replaced and the sentence flagged.
  const spoken = context?.patient?.sex ? guessGender(undefined, clinicianSpeech, language) : "unknown";
  const pronounFix: PronounFix | null =
    spoken !== "unknown" && gender !== "unknown" && spoken !== gender ? { from: spoken, to: gender } : null;
  const analysis = analyse(sentences, language, lexicon, gender, pronounFix);
  const name = nameState(context?.patient?.displayName, language);
  const kinds = sectionKinds(template.sections, lexicon);
  const wanted = input.onlySections ? new Set(input.onlySections) : null;
  const used = new Set<number>();
  const sections: NoteSectionDraft[] = [];
  // Every section is composed (in template order) so sentence de-duplication across sections is
  // the same whether one section or all are regenerated.
  template.sections.forEach((section, index) => {
    input.signal?.throwIfAborted();
    const draft = composeSection(
      index,
      { sections: template.sections, analysis, sentences, language, lexicon, previous: context?.previous, name },
      kinds,
      used,
    );
    if (!wanted || wanted.has(section.key)) sections.push(draft);
    input.onProgress?.((index + 1) / template.sections.length);
  });
  return { language, engine: EXTRACTIVE_ENGINE_ID, sections };
}

export function createExtractiveEngine(): NoteEngine {
  return {
    id: EXTRACTIVE_ENGINE_ID,
    generate: async (input) => generateExtractive(input),
  };
}
