import { openAsBlob } from "node:fs";
import { z } from "zod";
import {
  baseLanguage,
  type EngineAudio,
  type SpeechEngine,
  type TranscribeOptions,
  type TranscriptResult,
  type TranscriptSegment,
} from "#app/services/speech/engine.ts";
import { abortError, SpeechError } from "#app/services/speech/errors.ts";
import { round } from "#app/services/speech/windows.ts";

export interface OpenAiCompatibleConfig {
  /** e.g. "https://api.openai.com" or "http://whisper.internal:8000"; a trailing "/v1" is accepted too. */
  baseUrl: string;
  apiKey?: string;
  /** e.g. "whisper-1", "gpt-4o-transcribe", "Systran/faster-whisper-large-v3". */
  model: string;
  /** Languages this deployment's model handles well; Whisper-family models cover en, fr and es. */
  languages?: readonly string[];
  /** Per HTTP attempt. */
  timeoutMs?: number;
  /** Attempts after the first one, for 429, 5xx, timeouts and network errors. */
  maxRetries?: number;
  /** First back-off delay; doubles per attempt, with jitter. */
  retryBaseMs?: number;
  /** Longest wait honoured from a Retry-After header. */
  maxRetryAfterMs?: number;
  fetch?: typeof fetch;
}

// verbose_json as OpenAI documents it; compatible servers (faster-whisper-server, LocalAI, vLLM) add fields we ignore.
const VerboseJsonSchema = z.object({
  text: z.string(),
  language: z.string().optional(),
  duration: z.number().nonnegative().optional(),
  segments: z.array(z.object({ start: z.number().nonnegative(), end: z.number().nonnegative(), text: z.string() })).optional(),
  words: z.array(z.object({ word: z.string(), start: z.number(), end: z.number() })).optional(),
});

type VerboseJson = z.infer<typeof VerboseJsonSchema>;

export function transcriptionsUrl(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, "");
  return trimmed.endsWith("/v1") ? `${trimmed}/audio/transcriptions` : `${trimmed}/v1/audio/transcriptions`;
}

/** Retry-After is either seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const seconds = Number(header.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

export function segmentsFromReply(reply: VerboseJson): TranscriptSegment[] {
  const segments: TranscriptSegment[] = (reply.segments ?? [])
    .map((s) => ({ start: round(s.start), end: round(Math.max(s.end, s.start)), text: s.text.trim() }))
    .filter((s) => s.text.length > 0);
  if (segments.length === 0 && reply.text.trim()) {
    // A server that ignores timestamp_granularities still answers with text: one segment spanning the audio.
    segments.push({ start: 0, end: round(reply.duration ?? 0), text: reply.text.trim() });
  }
  return segments;
}

export function createOpenAiCompatibleEngine(config: OpenAiCompatibleConfig): SpeechEngine {
  const url = transcriptionsUrl(config.baseUrl);
  const languages = (config.languages ?? ["en", "fr", "es"]).map(baseLanguage);
  const timeoutMs = config.timeoutMs ?? 300_000;
  const maxRetries = config.maxRetries ?? 4;
  const retryBaseMs = config.retryBaseMs ?? 1000;
  const maxRetryAfterMs = config.maxRetryAfterMs ?? 60_000;
  const doFetch = config.fetch ?? fetch;

  async function body(audio: EngineAudio, language: string): Promise<FormData> {
    const form = new FormData();
    const file =
      typeof audio === "string"
        ? await openAsBlob(audio, { type: "audio/wav" })
        : new Blob([new Uint8Array(audio)], { type: "audio/wav" });
    form.append("file", file, "audio.wav");
    form.append("model", config.model);
    form.append("language", language);
    form.append("response_format", "verbose_json");
    form.append("timestamp_granularities[]", "segment");
    return form;
  }

  async function attempt(
    audio: EngineAudio,
    language: string,
    signal?: AbortSignal,
  ): Promise<{ response: Response; timeout: AbortSignal }> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const headers: Record<string, string> = { accept: "application/json" };
    if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
    try {
      const response = await doFetch(url, { method: "POST", headers, body: await body(audio, language), signal: combined });
      return { response, timeout };
    } catch (error) {
      if (signal?.aborted) throw abortError(signal);
      if (timeout.aborted) throw new SpeechError("engine_timeout", `no reply within ${timeoutMs} ms`, { cause: error });
      throw new SpeechError("engine_unavailable", error instanceof Error ? error.message : "network error", { cause: error });
    }
  }

  async function readReply(response: Response, timeout: AbortSignal, signal?: AbortSignal): Promise<VerboseJson> {
    let json: unknown;
    try {
      json = await response.json();
    } catch (error) {
      if (signal?.aborted) throw abortError(signal);
      // The body is read under the same time limit as the headers: a reply that stalls or is cut
      // mid-way is a transient failure to retry, not a malformed reply that fails the visit.
      if (timeout.aborted) throw new SpeechError("engine_timeout", `reply not finished within ${timeoutMs} ms`, { cause: error });
      if (!(error instanceof SyntaxError)) {
        throw new SpeechError("engine_unavailable", error instanceof Error ? error.message : "reply cut short", { cause: error });
      }
      throw new SpeechError("engine_bad_response", "reply is not JSON", { cause: error });
    }
    const parsed = VerboseJsonSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new SpeechError(
        "engine_bad_response",
        `unexpected reply shape at ${issue?.path.join(".") || "root"}: ${issue?.message ?? "invalid"}`,
      );
    }
    return parsed.data;
  }

  function wait(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortError(signal));
        return;
      }
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        if (signal) reject(abortError(signal));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  async function transcribe(audio: EngineAudio, options: TranscribeOptions): Promise<TranscriptResult> {
    const language = baseLanguage(options.language);
    if (!languages.includes(language)) {
      throw new SpeechError("no_engine_for_language", `openai-compatible engine is not configured for "${language}"`);
    }
    let lastError: SpeechError | null = null;
    // Set by a 429's Retry-After: the server knows better than our back-off when to come back.
    let retryAfter: number | null = null;
    for (let tryIndex = 0; tryIndex <= maxRetries; tryIndex++) {
      if (tryIndex > 0) {
        const backoff = retryBaseMs * 2 ** (tryIndex - 1) * (0.75 + Math.random() * 0.5);
        await wait(retryAfter ?? backoff, options.signal);
        retryAfter = null;
      }
      let response: Response;
      let reply: VerboseJson | null = null;
      try {
        const sent = await attempt(audio, language, options.signal);
        response = sent.response;
        if (response.ok) reply = await readReply(response, sent.timeout, options.signal);
      } catch (error) {
        if (error instanceof SpeechError && (error.code === "engine_timeout" || error.code === "engine_unavailable")) {
          lastError = error;
          continue;
        }
        throw error;
      }
      if (reply) {
        const segments = segmentsFromReply(reply);
        for (const segment of segments) options.onSegment?.(segment);
        return {
          text: reply.text.trim() || segments.map((s) => s.text).join(" "),
          segments,
          engine: "openai-compatible",
          model: config.model,
          language,
        };
      }
      const detail = await response.text().catch(() => "");
      const reason = `HTTP ${response.status}${detail ? `: ${detail.slice(0, 200)}` : ""}`;
      if (response.status === 429) {
        const hint = retryAfterMs(response.headers.get("retry-after"));
        retryAfter = hint === null ? null : Math.min(hint, maxRetryAfterMs);
        lastError = new SpeechError("engine_rate_limited", reason);
        continue;
      }
      if (response.status >= 500) {
        lastError = new SpeechError("engine_failed", reason);
        continue;
      }
      throw new SpeechError("engine_rejected", reason);
    }
    throw lastError ?? new SpeechError("engine_failed", "no attempt made");
  }

  return {
    id: "openai-compatible",
    languages,
    model: config.model,
    // 10 minutes of 16 kHz 16-bit mono is 19.2 MB, under the 25 MB upload limit of OpenAI's endpoint.
    window: { windowSec: 600, overlapSec: 5 },
    supports: (language) => languages.includes(baseLanguage(language)),
    transcribe,
  };
}
