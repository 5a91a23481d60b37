import { z } from "zod";

/** Settings → Organisation, "Speech vocabulary": one word or short name per line (issue 15, ADR 0032). */
export const MAX_VOCABULARY_TERMS = 500;
export const MAX_VOCABULARY_TERM_LENGTH = 60;
/** Letters of any script (accents are dropped for the English decoder), spaces, hyphens, apostrophes. */
const TERM = /^\p{L}[\p{L}\p{M}' -]*$/u;

export const VOCABULARY_FORM_CODES = ["vocabulary_invalid_term", "vocabulary_too_many"] as const;

export const vocabularyFormSchema = z.object({
  intent: z.literal("vocabulary"),
  terms: z
    .string()
    .max(MAX_VOCABULARY_TERMS * (MAX_VOCABULARY_TERM_LENGTH + 2), "vocabulary_too_many")
    .transform((text) => [
      ...new Set(
        text
          .split(/\r?\n/)
          .map((line) => line.normalize("NFC").trim().replace(/\s+/g, " "))
          .filter(Boolean),
      ),
    ])
    .refine((terms) => terms.length <= MAX_VOCABULARY_TERMS, "vocabulary_too_many")
    .refine((terms) => terms.every((t) => t.length <= MAX_VOCABULARY_TERM_LENGTH && TERM.test(t)), "vocabulary_invalid_term"),
});
