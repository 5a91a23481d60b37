import en from "../../../locales/en/rag.json" with { type: "json" };
import es from "../../../locales/es/rag.json" with { type: "json" };
import fr from "../../../locales/fr/rag.json" with { type: "json" };

export type RagLanguage = "en" | "fr" | "es";
const ANSWERS = { en: en.answer, fr: fr.answer, es: es.answer } as const;

/** The fixed sentences an answer may be made of (locales/<lang>/rag.json "answer"). */
export function answerPhrases(language: RagLanguage) {
  return ANSWERS[language];
}

/** SPEC §4: the help answer whose 'Try:' line the chat swaps for the support-contact block. */
export const HELP_UNKNOWN_EN = en.answer.helpUnknown;
