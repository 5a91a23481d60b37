import { isStopWord, type Token, tokenize } from "../../text.ts";

// Phrases of the learned lexicon: 1–3 consecutive words (folded, stemmed), neither end a stop word
// nor a number. The trainer and the engine cut phrases the same way.

export const MAX_PHRASE_WORDS = 3;

const usable = (w: string) => !isStopWord(w) && !/^\d+$/.test(w) && w.length > 1;

export function phraseSpans(tokens: Token[]): Array<{ phrase: string; from: number; to: number }> {
  const out: Array<{ phrase: string; from: number; to: number }> = [];
  for (let i = 0; i < tokens.length; i++) {
    if (!usable(tokens[i]!.word)) continue;
    for (let n = 1; n <= MAX_PHRASE_WORDS && i + n <= tokens.length; n++) {
      if (!usable(tokens[i + n - 1]!.word)) continue;
      out.push({
        phrase: tokens
          .slice(i, i + n)
          .map((t) => t.word)
          .join(" "),
        from: i,
        to: i + n - 1,
      });
    }
  }
  return out;
}

export function phrasesOf(text: string): string[] {
  return phraseSpans(tokenize(text)).map((p) => p.phrase);
}
