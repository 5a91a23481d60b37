import { z } from "zod";
import { isNoteEngineError, NoteEngineError, noteAbortError } from "#app/services/notes/engines/errors.ts";
import { type ChatMessage, SECTION_REPLY_JSON_SCHEMA } from "#app/services/notes/engines/openai-compatible/prompt.ts";
import { retryAfterMs } from "#app/services/speech/openai-compatible.server.ts";

export interface ChatClientConfig {
  /** As the OpenAI SDKs take it, version included: "https://api.openai.com/v1", "http://localhost:11434/v1". */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Per HTTP attempt, reading the reply included. */
  timeoutMs: number;
  /** Attempts after the first one, for 429, 5xx, timeouts and network errors. */
  maxRetries: number;
  /** First back-off delay; doubles per attempt, with jitter. */
  retryBaseMs: number;
  /** Longest wait honoured from a Retry-After header. */
  maxRetryAfterMs: number;
  fetch?: typeof fetch;
}

export interface ChatClient {
  /** The assistant message's content of a JSON-constrained completion; NoteEngineError otherwise. */
  completeJson(messages: ChatMessage[], signal?: AbortSignal): Promise<string>;
}

// Only what we read; providers add usage, ids, logprobs and more.
const CompletionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
});

export function chatCompletionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/chat/completions`;
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(noteAbortError(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      if (signal) reject(noteAbortError(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

type ResponseFormat = "json_schema" | "json_object";

export function createChatClient(config: ChatClientConfig): ChatClient {
  const url = chatCompletionsUrl(config.baseUrl);
  const doFetch = config.fetch ?? fetch;
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  // Ollama and some vLLM builds reject json_schema with a 400; once one has, this engine stops asking.
  let format: ResponseFormat = "json_schema";

  function body(messages: ChatMessage[], responseFormat: ResponseFormat): string {
    return JSON.stringify({
      model: config.model,
      temperature: 0,
      messages,
      response_format:
        responseFormat === "json_schema"
          ? { type: "json_schema", json_schema: SECTION_REPLY_JSON_SCHEMA }
          : { type: "json_object" },
    });
  }

  async function attempt(payload: string, signal?: AbortSignal): Promise<{ status: number; headers: Headers; text: string }> {
    const timeout = AbortSignal.timeout(config.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      const response = await doFetch(url, { method: "POST", headers, body: payload, signal: combined });
      // Read under the same signal: a server that stalls mid-body is a timeout too.
      const text = await response.text();
      return { status: response.status, headers: response.headers, text };
    } catch (error) {
      if (signal?.aborted) throw noteAbortError(signal);
      if (timeout.aborted)
        throw new NoteEngineError("engine_timeout", `no reply within ${config.timeoutMs} ms`, { cause: error });
      throw new NoteEngineError("engine_unavailable", error instanceof Error ? error.message : "network error", { cause: error });
    }
  }

  /** The first reply that is not worth retrying: a success or a 4xx other than 429. */
  async function send(payload: string, signal?: AbortSignal): Promise<{ status: number; text: string }> {
    let lastError: NoteEngineError | null = null;
    // Set by a 429's Retry-After: the server knows better than our back-off when to come back.
    let retryAfter: number | null = null;
    for (let tryIndex = 0; tryIndex <= config.maxRetries; tryIndex++) {
      if (tryIndex > 0) {
        const backoff = config.retryBaseMs * 2 ** (tryIndex - 1) * (0.75 + Math.random() * 0.5);
        await wait(retryAfter ?? backoff, signal);
        retryAfter = null;
      }
      let reply: Awaited<ReturnType<typeof attempt>>;
      try {
        reply = await attempt(payload, signal);
      } catch (error) {
        if (isNoteEngineError(error) && error.retryable) {
          lastError = error;
          continue;
        }
        throw error;
      }
      if (reply.status === 429) {
        const hint = retryAfterMs(reply.headers.get("retry-after"));
        retryAfter = hint === null ? null : Math.min(hint, config.maxRetryAfterMs);
        lastError = new NoteEngineError("engine_rate_limited", httpReason(reply));
        continue;
      }
      if (reply.status >= 500) {
        lastError = new NoteEngineError("engine_failed", httpReason(reply));
        continue;
      }
      return reply;
    }
    throw lastError ?? new NoteEngineError("engine_failed", "no attempt made");
  }

  async function completeJson(messages: ChatMessage[], signal?: AbortSignal): Promise<string> {
    for (;;) {
      const asked = format;
      const reply = await send(body(messages, asked), signal);
      if (reply.status >= 200 && reply.status < 300) return contentOf(reply.text);
      // 422 too: pydantic-based servers answer an unknown response_format type with it.
      if (asked === "json_schema" && (reply.status === 400 || reply.status === 422)) {
        format = "json_object";
        continue;
      }
      throw new NoteEngineError("engine_rejected", httpReason(reply));
    }
  }

  return { completeJson };
}

function httpReason(reply: { status: number; text: string }): string {
  const detail = reply.text.trim().slice(0, 200);
  return `HTTP ${reply.status}${detail ? `: ${detail}` : ""}`;
}

function contentOf(text: string): string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new NoteEngineError("engine_bad_response", "completion is not JSON", { cause: error });
  }
  const parsed = CompletionSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new NoteEngineError(
      "engine_bad_response",
      `unexpected completion shape at ${issue?.path.join(".") || "root"}: ${issue?.message ?? "invalid"}`,
    );
  }
  const choice = parsed.data.choices[0];
  if (choice?.message.refusal)
    throw new NoteEngineError("engine_bad_response", `model refused: ${choice.message.refusal.slice(0, 200)}`);
  const content = choice?.message.content?.trim();
  if (!content)
    throw new NoteEngineError("engine_bad_response", `empty completion (finish_reason ${choice?.finish_reason ?? "none"})`);
  return content;
}
