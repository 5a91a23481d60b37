import { HttpResponse, http } from "msw";
import { type SetupServer, setupServer } from "msw/node";

/**
 * A stand-in for an OpenAI-compatible chat-completions server (OpenAI, Ollama, vLLM…) for msw.
 * It answers POST <any base>/chat/completions, records every call, and replies with whatever the
 * test's responder returns; by default an empty section, which is what a scribe model that follows
 * the "only what was said" rule returns when it has nothing.
 */

export interface ChatRequestBody {
  model: string;
  temperature?: number;
  messages: { role: string; content: string }[];
  response_format?: { type: string; json_schema?: { name: string; strict?: boolean; schema: unknown } };
}

export interface ChatCall {
  url: URL;
  headers: Headers;
  body: ChatRequestBody;
  /** The section title the engine asked for (from its `Section to write: "…"` line), "" if none. */
  section: string;
  /** How many calls for this same section came before this one (0 on the first). */
  attempt: number;
}

export type ChatResponder = (call: ChatCall) => Response | Promise<Response>;

/** A 200 chat.completion whose assistant content is `content` (objects are serialised as JSON). */
export function chatCompletion(content: string | object | null, init?: { finishReason?: string }): Response {
  return HttpResponse.json({
    id: "chatcmpl-mock",
    object: "chat.completion",
    created: 1_767_225_600,
    model: "mock",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: typeof content === "string" || content === null ? content : JSON.stringify(content),
        },
        finish_reason: init?.finishReason ?? "stop",
      },
    ],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
}

/** The reply shape the engine asks for. */
export function sectionReply(sentences: { text: string; evidence_lines: unknown[] }[]): Response {
  return chatCompletion({ sentences });
}

/** An OpenAI-style error body with the given status and headers. */
export function chatError(status: number, message: string, headers?: Record<string, string>): Response {
  return HttpResponse.json({ error: { message, type: "mock_error", code: null } }, { status, headers });
}

export interface OpenAiChatMock {
  server: SetupServer;
  calls: ChatCall[];
  /** Starts intercepting; any other outgoing request fails the test (msw 3: onUnhandledFrame). */
  listen(): void;
  close(): void;
  /** Replaces the responder until the next reset. */
  respond(responder: ChatResponder): void;
  reset(): void;
}

const emptySection: ChatResponder = () => sectionReply([]);

export function createOpenAiChatMock(): OpenAiChatMock {
  const calls: ChatCall[] = [];
  let responder: ChatResponder = emptySection;
  const server = setupServer(
    http.post("*/chat/completions", async ({ request }) => {
      const body = (await request.json()) as ChatRequestBody;
      const user = body.messages.find((m) => m.role === "user")?.content ?? "";
      const section = /Section to write: "([^"]*)"/.exec(user)?.[1] ?? "";
      const call: ChatCall = {
        url: new URL(request.url),
        headers: request.headers,
        body,
        section,
        attempt: calls.filter((c) => c.section === section).length,
      };
      calls.push(call);
      return responder(call);
    }),
  );
  return {
    server,
    calls,
    listen() {
      server.listen({ onUnhandledFrame: "error" });
    },
    close() {
      server.close();
    },
    respond(next) {
      responder = next;
    },
    reset() {
      calls.length = 0;
      responder = emptySection;
    },
  };
}
