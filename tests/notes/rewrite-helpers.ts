// The engine's path for one spoken sentence, for the rewrite case tables: speech clean-up, the
// third person, then the rewriting stage (issue 18).

import { lexiconFor } from "#app/services/notes/engines/extractive/lexicon.ts";
import { type Gender, toThirdPerson, type Voice } from "#app/services/notes/engines/extractive/person.ts";
import { type RewriteRole, rewriteSentence } from "#app/services/notes/engines/extractive/rewrite.ts";
import {
  capitalise,
  cleanSpeech,
  endSentence,
  expandContractions,
  numbersToDigits,
  shortUnits,
  tidySpacing,
} from "#app/services/notes/engines/extractive/text.ts";
import type { NoteLanguage } from "#app/services/notes/model.ts";

export type RewriteCase = [role: RewriteRole, said: string, expected: string | null];

/** A spoken sentence as the note writes it in `role`; the voice is the patient's for history, else the clinician's. */
export function rewriteSaid(said: string, role: RewriteRole, language: NoteLanguage, gender: Gender = "female"): string | null {
  const lexicon = lexiconFor(language);
  const voice: Voice = role === "history" ? "patient" : "clinician";
  const clean = shortUnits(
    numbersToDigits(cleanSpeech(expandContractions(tidySpacing(said, language), language), lexicon), lexicon),
  );
  const third = capitalise(endSentence(toThirdPerson(clean, voice, language, gender, lexicon.write.patient[gender])));
  return rewriteSentence(third, role, voice, language);
}

/**
 * "to be sure we are not missing anything" is reassurance, not a negated finding: the rules drop it
 * whole, so a negation check reads the source without it (the one negation the rules may drop).
 */
export const REASSURANCE =
  /\b(?:just )?to (?:make sure|be sure|ensure) (?:that )?we (?:are|'re|do) not (?:missing|miss) anything(?: else)?(?: there| here)?/gi;
