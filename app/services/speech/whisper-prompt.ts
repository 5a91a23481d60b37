import type { OrgVocabulary } from "#app/services/speech/org-vocab/model-cache.server.ts";
import type { TermSource, VocabularyTerm } from "#app/services/speech/org-vocab/terms.ts";

/**
 * The organisation's vocabulary as a Whisper initial prompt (issue 15, ADR 0032): whisper.cpp
 * conditions its first window on the prompt's tokens, so a practice's drug names and clinicians'
 * names are spelled as it spells them. Pocketsphinx gets the same terms as an adapted language model.
 */

/** whisper.cpp keeps at most half its 448-token text context for a prompt; ~4 characters a token. */
export const MAX_PROMPT_CHARS = 600;

// What the owner typed and the clinicians' names first: the words a general model misses most.
const ORDER: Record<TermSource, number> = { custom: 0, clinician: 1, template: 2, note: 3 };

function spelled(term: VocabularyTerm): string {
  // Terms are stored as the decoder spells them (lower case); a name reads as a name.
  return term.source === "clinician" ? term.word.charAt(0).toUpperCase() + term.word.slice(1) : term.word;
}

/**
 * "Glossary: …" with the practice's terms, or undefined when it has none or the visit is not in
 * English (the vocabulary is English, ADR 0032; an English prompt would pull a French visit's
 * transcript towards English).
 */
export function whisperPrompt(vocabulary: OrgVocabulary | undefined, language: string): string | undefined {
  if (!vocabulary || vocabulary.terms.length === 0 || language !== "en") return undefined;
  const terms = [...vocabulary.terms].sort((a, b) => ORDER[a.source] - ORDER[b.source]);
  let prompt = "Glossary:";
  for (const term of terms) {
    const next = `${prompt}${prompt.endsWith(":") ? " " : ", "}${spelled(term)}`;
    if (next.length + 1 > MAX_PROMPT_CHARS) break;
    prompt = next;
  }
  return prompt === "Glossary:" ? undefined : `${prompt}.`;
}
