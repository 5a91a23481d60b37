import {
  isNoteEngineError,
  type NoteDraftWithFailures,
  type NoteEngineError,
  noteAbortError,
  type SectionFailure,
} from "#app/services/notes/engines/errors.ts";
import { createChatClient } from "#app/services/notes/engines/openai-compatible/chat-client.server.ts";
import { sectionMessages } from "#app/services/notes/engines/openai-compatible/prompt.ts";
import { sentencesFromReply } from "#app/services/notes/engines/openai-compatible/reply.ts";
import { fixedSentences, previousSentences, sectionDraft } from "#app/services/notes/engines/openai-compatible/section.ts";
import type { NoteEngine, NoteEngineInput, NoteSectionDraft, NoteSentence, TemplateSection } from "#app/services/notes/model.ts";

export interface OpenAiCompatibleNoteEngineConfig {
  /** As the OpenAI SDKs take it, version included: "https://api.openai.com/v1", "http://localhost:11434/v1" (Ollama), "http://vllm:8000/v1". */
  baseUrl: string;
  apiKey?: string;
  /** e.g. "gpt-4o-mini", "llama3.1:8b", "Qwen/Qwen2.5-7B-Instruct". */
  model: string;
  /** Per HTTP attempt (one section). Default 120 s: a local model on CPU is slow. */
  timeoutMs?: number;
  /** Attempts after the first one per section, for 429, 5xx, timeouts and network errors. Default 3. */
  maxRetries?: number;
  /** First back-off delay; doubles per attempt, with jitter. Default 1 s. */
  retryBaseMs?: number;
  /** Longest wait honoured from a Retry-After header. Default 60 s. */
  maxRetryAfterMs?: number;
  /** Sections in flight at once. Default 2: faster notes without tripping a provider's rate limit. */
  concurrency?: number;
  fetch?: typeof fetch;
}

export const OPENAI_COMPATIBLE_ENGINE_ID = "openai-compatible";

/** Pure boilerplate (fixed text with nothing to fill or follow, no clinical kind) needs no model call. */
function needsModel(section: TemplateSection): boolean {
  return !(section.fixedText && !section.placeholders?.length && !section.instructions && section.kind === "other");
}

async function eachWithConcurrency<T>(
  items: readonly T[],
  concurrency: number,
  signal: AbortSignal | undefined,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      if (signal?.aborted) throw noteAbortError(signal);
      const index = next++;
      await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
}

/**
 * Chat-completions note engine (issue 6): one request per section, temperature 0, structured JSON.
 * A section whose request fails after retries, or whose reply cannot be read, comes back with only
 * its fixed text and is listed in `failures`; the other sections stand. When every section that
 * needed the model failed there is no note to keep, so generate throws that error instead (the job
 * can retry the whole note). An abort stops everything and throws `cancelled`.
 */
export function createOpenAiCompatibleNoteEngine(config: OpenAiCompatibleNoteEngineConfig): NoteEngine {
  const client = createChatClient({
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    model: config.model,
    timeoutMs: config.timeoutMs ?? 120_000,
    maxRetries: config.maxRetries ?? 3,
    retryBaseMs: config.retryBaseMs ?? 1000,
    maxRetryAfterMs: config.maxRetryAfterMs ?? 60_000,
    fetch: config.fetch,
  });
  const concurrency = config.concurrency ?? 2;

  async function generate(input: NoteEngineInput): Promise<NoteDraftWithFailures> {
    const { signal } = input;
    if (signal?.aborted) throw noteAbortError(signal);
    const only = input.onlySections ? new Set(input.onlySections) : null;
    const sections = input.template.sections.filter((s) => !only || only.has(s.key));
    const drafts: NoteSectionDraft[] = new Array(sections.length);
    const errors = new Map<string, NoteEngineError>();
    let asked = 0;
    let done = 0;

    await eachWithConcurrency(sections, concurrency, signal, async (section, index) => {
      let generated: NoteSentence[] = [];
      let failed = false;
      // An empty transcript has nothing to say about any section: no request.
      if (input.transcript.length > 0 && needsModel(section)) {
        asked++;
        try {
          const messages = sectionMessages({
            language: input.language,
            transcript: input.transcript,
            context: input.context,
            section,
          });
          generated = sentencesFromReply(await client.completeJson(messages, signal), input.transcript);
        } catch (error) {
          if (signal?.aborted) throw noteAbortError(signal);
          if (!isNoteEngineError(error) || error.code === "cancelled") throw error;
          errors.set(section.key, error);
          failed = true;
        }
      }
      // Carried forward only when the visit said nothing new; after a failure nobody knows that.
      const carried =
        section.persistent && !failed && generated.length === 0
          ? previousSentences(section, input.context?.previous?.[section.key])
          : [];
      drafts[index] = sectionDraft(section, [...fixedSentences(section), ...generated, ...carried]);
      done++;
      input.onProgress?.(done / sections.length);
    });

    const first = errors.values().next().value;
    if (first && errors.size === asked) throw first;
    const failures: SectionFailure[] = sections
      .filter((s) => errors.has(s.key))
      .map((s) => {
        const error = errors.get(s.key) as NoteEngineError;
        return { key: s.key, code: error.code, reason: error.reason };
      });
    return {
      language: input.language,
      engine: OPENAI_COMPATIBLE_ENGINE_ID,
      model: config.model,
      sections: drafts,
      failures,
    };
  }

  return { id: OPENAI_COMPATIBLE_ENGINE_ID, generate };
}
