import { AppError } from "#app/utils/app-error.ts";

/**
 * Stable codes of the speech layer. Audio codes are the uploader's problem (never retried);
 * engine codes say whether a retry may help, so the job runner can decide without parsing messages.
 */
export type SpeechErrorCode =
  | "audio_unreadable"
  | "audio_empty"
  | "audio_too_long"
  | "audio_no_speech"
  | "audio_tool_missing"
  | "no_engine_for_language"
  | "engine_unavailable"
  | "engine_failed"
  | "engine_rejected"
  | "engine_timeout"
  | "engine_rate_limited"
  | "engine_bad_response"
  | "model_missing"
  | "model_corrupt"
  | "model_unknown"
  | "cancelled";

const statusByCode: Record<SpeechErrorCode, number> = {
  audio_unreadable: 422,
  audio_empty: 422,
  audio_too_long: 413,
  // Issue 26: silence (or sound no engine hears words in): retrying the same audio cannot help.
  audio_no_speech: 422,
  audio_tool_missing: 503,
  no_engine_for_language: 422,
  engine_unavailable: 503,
  engine_failed: 502,
  engine_rejected: 502,
  engine_timeout: 504,
  engine_rate_limited: 503,
  engine_bad_response: 502,
  // A local model file the practice must fix: nothing a retry can change.
  model_missing: 503,
  model_corrupt: 503,
  model_unknown: 503,
  cancelled: 499,
};

const retryableCodes: ReadonlySet<SpeechErrorCode> = new Set([
  "engine_unavailable",
  "engine_failed",
  "engine_timeout",
  "engine_rate_limited",
]);

export class SpeechError extends AppError {
  override readonly code: SpeechErrorCode;
  /** Short machine-readable detail for logs and the failed state (e.g. ffprobe's complaint), never user input. */
  readonly reason: string;
  readonly retryable: boolean;

  constructor(code: SpeechErrorCode, reason: string, options?: { cause?: unknown }) {
    super(statusByCode[code], code, `${code}: ${reason}`);
    this.name = "SpeechError";
    this.code = code;
    this.reason = reason;
    this.retryable = retryableCodes.has(code);
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

export function isSpeechError(value: unknown, code?: SpeechErrorCode): value is SpeechError {
  return value instanceof SpeechError && (code === undefined || value.code === code);
}

/** The error to throw when an AbortSignal fired: keeps the caller's reason when it is already a SpeechError. */
export function abortError(signal: AbortSignal): SpeechError {
  const reason: unknown = signal.reason;
  if (reason instanceof SpeechError) return reason;
  return new SpeechError("cancelled", reason instanceof Error ? reason.message : "cancelled by caller");
}
