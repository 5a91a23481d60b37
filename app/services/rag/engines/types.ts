import type { ExpandedQuery } from "../expand.ts";
import type { AskScope, RankedPassage } from "../model.ts";
import type { RagLanguage } from "../phrases.server.ts";

// Answer engines (issue 12 "Answers"), shaped like the note engines: one small interface, an
// embedded default and an OpenAI-compatible one. An engine sees only the ranked passages the
// caller may read and writes an answer whose [n] markers point into them (1-based).

export interface AnswerInput {
  question: string;
  query: ExpandedQuery;
  passages: RankedPassage[];
  scope: AskScope;
  /** The reader's language: the fixed sentences ("the records do not say") are in it. */
  language: RagLanguage;
  /** The organisation's time zone (a signed note's day in the answer); UTC when absent. */
  timeZone?: string;
  signal?: AbortSignal;
}

export interface AnswerOutput {
  answer: string;
  /** True when a configured model failed and the extractive answer was used instead. */
  usedFallback: boolean;
  /** True when nothing relevant was found (the answer is the translated "do not say" sentence). */
  unanswered: boolean;
}

export interface AnswerEngine {
  id: "extractive" | "openai-compatible";
  answer(input: AnswerInput): Promise<AnswerOutput>;
}
