import type { NoteDraft, NoteEngine, NoteEngineInput, NoteSectionDraft } from "../../model.ts";
import { analyse } from "./candidates.ts";
import { composeSection, sectionKinds } from "./compose.ts";
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
  const gender = guessGender(
    context?.patient?.sex,
    sentences.filter((s) => s.role !== "patient").map((s) => s.folded),
    language,
  );
  const analysis = analyse(sentences, language, lexicon, gender);
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
      { sections: template.sections, analysis, sentences, language, lexicon, previous: context?.previous },
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
