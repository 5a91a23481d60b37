import { splitSentences } from "#app/services/notes/sentences.ts";
import { composeAnswer, scoreSentence as score, stem } from "../answer/compose.ts";
import { words } from "../expand.ts";
import { answerPhrases } from "../phrases.server.ts";
import type { AnswerEngine, AnswerInput, AnswerOutput } from "./types.ts";

// The embedded answerer (issue 12 "Answers", default). Records questions: answer/compose.ts
// (issue 28). Help questions: it picks the article sentences that best match the question and
// joins them, each with its citation marker. It writes no word of its own
// besides the translated "the records do not say" sentence, so every number, dose and drug name
// of an answer is in a cited source.

/** At most this many sentences in one answer. */
const MAX_SENTENCES = 3;
/** A sentence scoring under this share of the best one is left out. */
const KEEP_RATIO = 0.5;

/** Word stems good enough to match across inflections in three languages: the first five letters. */
/** A number with a unit: what a question about a dose or a level wants to read. */
const AMOUNT = /\d+(?:[.,]\d+)? ?(?:mg|milligrams?|mcg|micrograms?|g|grams?|ml|units?|milligrammes?|miligramos?|%)/i;

interface Candidate {
  passage: number;
  text: string;
  score: number;
}

export function extractiveAnswer(input: AnswerInput): AnswerOutput {
  if (input.scope === "records") {
    const { answer, unanswered } = composeAnswer({
      question: input.question,
      terms: input.query.terms,
      expansions: input.query.expansions,
      wantsAmount: input.query.wantsAmount,
      passages: input.passages,
      language: input.language,
      timeZone: input.timeZone ?? "UTC",
    });
    return { answer, unanswered, usedFallback: false };
  }
  return helpAnswer(input);
}

/** Help answers (unchanged by issue 28): the best-matching article sentences, each cited. */
function helpAnswer(input: AnswerInput): AnswerOutput {
  const phrases = answerPhrases(input.language);
  const own = new Set(input.query.terms.filter((t) => t.length > 1).map(stem));
  const expanded = new Set(input.query.expansions.flatMap((p) => words(p)).map(stem));
  const candidates: Candidate[] = [];
  input.passages.forEach((passage, index) => {
    for (const text of splitSentences(passage.text)) {
      const { score: s, strong } = score(text, own, expanded);
      // The ranking's order counts a little: between equal sentences the better passage wins.
      const amount = input.query.wantsAmount && AMOUNT.test(text) ? 0.5 : 0;
      if (strong) candidates.push({ passage: index, text, score: s + amount + 0.3 / (index + 1) });
    }
  });
  if (candidates.length === 0) {
    const answer = input.scope === "help" ? `${phrases.helpUnknown}\n${phrases.helpTry}` : phrases.notInRecords;
    return { answer, usedFallback: false, unanswered: true };
  }
  candidates.sort((a, b) => b.score - a.score || a.passage - b.passage);
  const best = candidates[0]?.score ?? 0;
  const picked: Candidate[] = [];
  for (const c of candidates) {
    if (picked.length >= MAX_SENTENCES || c.score < best * KEEP_RATIO) break;
    if (picked.some((p) => p.text.toLowerCase() === c.text.toLowerCase())) continue;
    picked.push(c);
  }
  const line = (c: Candidate) => `${c.text} [${c.passage + 1}]`;
  const answer = picked.length === 1 ? line(picked[0] as Candidate) : picked.map((c) => `- ${line(c)}`).join("\n");
  return { answer, usedFallback: false, unanswered: false };
}

export function createExtractiveAnswerer(): AnswerEngine {
  return { id: "extractive", answer: async (input) => extractiveAnswer(input) };
}
