import type { AskFilters, AskResponse, AskScope, Citation } from "#app/services/rag/model.ts";
import { ASSISTANT } from "./constants.ts";

// The browser side of SPEC §4 "Ask flow" and §8, free of React so it is tested with msw: the ask
// call (a 404 without an error code means the search service is not deployed: SPEC's fallback
// answer), the source fetch retried once, the 200-message chat, the help disclaimer shown once and
// the "not enough information" answer's 'Try:' line swapped for the support contact.

/** SPEC §8, verbatim: the answer when search answers 404. */
export const SEARCH_UNAVAILABLE = "Search service not available yet. Please configure embeddings and backend search.";
/** SPEC §4, verbatim: the help answer whose 'Try:' line becomes the support-contact block. */
export const HELP_UNKNOWN = "I do not have enough information in help docs to answer that precisely.";

export interface AskRequest {
  query: string;
  filters?: AskFilters;
  patientId?: string | null;
  scope?: AskScope;
}

export class AskError extends Error {
  readonly status: number;
  readonly code: string | null;
  constructor(message: string, status: number, code: string | null) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function askAssistant(
  request: AskRequest,
  options: { orgId?: string; fetch?: typeof fetch; language?: string } = {},
): Promise<AskResponse> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.orgId) headers["x-org-id"] = options.orgId;
  if (options.language) headers["accept-language"] = options.language;
  const response = await (options.fetch ?? globalThis.fetch)("/api/rag/ask", {
    method: "POST",
    headers,
    body: JSON.stringify(request),
    credentials: "same-origin",
  });
  const body = (await response.json().catch(() => null)) as (Partial<AskResponse> & { code?: string; message?: string }) | null;
  if (response.ok && body) {
    return {
      answer: body.answer ?? "",
      citations: body.citations ?? [],
      usedFallback: Boolean(body.usedFallback),
      support: body.support ?? null,
      scope: body.scope ?? "records",
    };
  }
  if (response.status === 404 && !body?.code) {
    return { answer: SEARCH_UNAVAILABLE, citations: [], usedFallback: true, support: null, scope: request.scope ?? "records" };
  }
  // SPEC §8: the server's message, else the error's, else 'Unexpected error'.
  throw new AskError(body?.message || response.statusText || "Unexpected error", response.status, body?.code ?? null);
}

/** GET /api/rag/source, retried once after 250 ms; null when both fail (the chip keeps what it has). */
export async function fetchSource(
  id: string,
  options: { orgId?: string; fetch?: typeof fetch; wait?: (ms: number) => Promise<void> } = {},
): Promise<Partial<Citation> | null> {
  const wait = options.wait ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 0; attempt < 2; attempt++) {
    if (attempt > 0) await wait(ASSISTANT.sourceRetryMs);
    try {
      const response = await (options.fetch ?? globalThis.fetch)(`/api/rag/source?id=${encodeURIComponent(id)}`, {
        headers: options.orgId ? { "x-org-id": options.orgId } : {},
        credentials: "same-origin",
      });
      if (response.ok) return (await response.json()) as Partial<Citation>;
    } catch {
      // A network failure counts as a failed attempt.
    }
  }
  return null;
}

export interface ChatMessage {
  id: string;
  role: "user" | "assistant";
  content: string;
  createdAt: string;
  citations?: Citation[];
}

/** SPEC §4: the chat holds at most 200 messages; the oldest go first. */
export function appendMessage<T extends ChatMessage>(messages: readonly T[], message: T): T[] {
  return [...messages, message].slice(-ASSISTANT.maxMessages);
}

/**
 * SPEC §4: the help disclaimer is shown once per chat (later answers have it stripped), and the
 * "not enough information" answer's 'Try:' line is replaced by the support-contact block.
 */
export function presentAnswer(
  answer: string,
  options: { disclaimer: string; disclaimerShown: boolean; supportBlock: string },
): { text: string; disclaimerShown: boolean } {
  let text = answer;
  if (text.includes(HELP_UNKNOWN)) text = text.replace(/^Try:.*$/m, options.supportBlock);
  if (options.disclaimerShown) return { text: text.replace(options.disclaimer, "").trim(), disclaimerShown: true };
  return { text, disclaimerShown: text.includes(options.disclaimer) };
}
