import type { AskResponse, Citation } from "#app/services/rag/model.ts";
import { SEARCH_UNAVAILABLE } from "./ask-client.ts";

// SPEC §4 "Ask flow" as the widget's chat applies it to one answer, pure so it is unit-tested:
// the help disclaimer once per chat, the 'Try:' line of the "not enough information" help answer
// swapped for the support-contact block, SPEC §8's search fallback shown in the page's language.

export interface ChatEntry {
  id: string;
  role: "user" | "assistant";
  content: string;
  /** ISO instant; printed in the organisation's time zone. */
  createdAt: string;
  citations?: Citation[];
  /** First help answer of the chat: the disclaimer shows above it (SPEC §4, once per chat). */
  disclaimer?: boolean;
  /** The support-contact block replaces the answer's 'Try:' line. */
  support?: { url: string } | null;
  usedFallback?: boolean;
  /** The answer is SPEC §8's "search service not available" fallback. */
  searchUnavailable?: boolean;
}

export function assistantEntry(
  response: AskResponse,
  context: { id: string; createdAt: string; disclaimerShown: boolean; helpTry: string },
): { entry: ChatEntry; disclaimerShown: boolean } {
  const disclaimer = response.scope === "help" && !context.disclaimerShown;
  let content = response.answer;
  if (response.support) {
    // The engines end that answer with the translated 'Try:' line; English also starts "Try:".
    content = content
      .split("\n")
      .filter((line) => line.trim() !== context.helpTry && !/^Try:/.test(line.trim()))
      .join("\n")
      .trim();
  }
  return {
    entry: {
      id: context.id,
      role: "assistant",
      content,
      createdAt: context.createdAt,
      citations: response.citations,
      disclaimer,
      support: response.support,
      usedFallback: response.usedFallback,
      searchUnavailable: response.answer === SEARCH_UNAVAILABLE,
    },
    disclaimerShown: context.disclaimerShown || disclaimer,
  };
}

/** The text "copy last answer" puts on the clipboard: the latest assistant message, or null. */
export function lastAnswer(messages: readonly ChatEntry[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === "assistant") return messages[i]?.content ?? null;
  return null;
}
