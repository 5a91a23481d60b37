import { useCallback, useRef, useState } from "react";
import type { AskFilters } from "#app/services/rag/model.ts";
import { AskError, appendMessage, askAssistant } from "./ask-client.ts";
import { assistantEntry, type ChatEntry } from "./chat-state.ts";
import { compactFilters } from "./filter-chips.ts";

// The widget's chat (SPEC §3 "Ask store", §4 "Ask flow"). It lives in component state only: a new
// mount (a page load, another organisation) starts an empty chat, and nothing is persisted.

export interface AskChat {
  messages: ChatEntry[];
  loading: boolean;
  /** Translated error line, null when the last ask succeeded. */
  error: string | null;
  latencyMs: number | null;
  filters: AskFilters;
  setFilters: (filters: AskFilters) => void;
  /** Sends a question; resolves false when it failed (the caller puts the question back). */
  send: (query: string) => Promise<boolean>;
}

export function useAskChat(options: {
  orgId: string;
  language: string;
  helpTry: string;
  describeError: (error: unknown) => string;
}): AskChat {
  const [messages, setMessages] = useState<ChatEntry[]>([]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [latencyMs, setLatencyMs] = useState<number | null>(null);
  const [filters, setFilters] = useState<AskFilters>({});
  const disclaimerShown = useRef(false);
  const counter = useRef(0);
  const inFlight = useRef(false);
  const { orgId, language, helpTry, describeError } = options;

  const send = useCallback(
    async (raw: string) => {
      const query = raw.trim();
      // SPEC §5: a non-empty query and no request in flight.
      if (!query || inFlight.current) return false;
      inFlight.current = true;
      const nextId = () => `m${++counter.current}`;
      setMessages((list) =>
        appendMessage(list, { id: nextId(), role: "user", content: query, createdAt: new Date().toISOString() }),
      );
      setLoading(true);
      setError(null);
      const started = performance.now();
      try {
        const response = await askAssistant({ query, filters: compactFilters(filters) }, { orgId, language });
        setLatencyMs(Math.round(performance.now() - started));
        const { entry, disclaimerShown: shown } = assistantEntry(response, {
          id: nextId(),
          createdAt: new Date().toISOString(),
          disclaimerShown: disclaimerShown.current,
          helpTry,
        });
        disclaimerShown.current = shown;
        setMessages((list) => appendMessage(list, entry));
        return true;
      } catch (failure) {
        setError(describeError(failure instanceof AskError || failure instanceof Error ? failure : null));
        return false;
      } finally {
        inFlight.current = false;
        setLoading(false);
      }
    },
    [filters, orgId, language, helpTry, describeError],
  );

  return { messages, loading, error, latencyMs, filters, setFilters, send };
}
