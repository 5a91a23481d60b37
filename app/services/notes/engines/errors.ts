import type { NoteDraft } from "#app/services/notes/model.ts";
import { AppError } from "#app/utils/app-error.ts";

/**
 * Stable codes of the note engines, shaped like the speech layer's so the notes job can decide
 * whether a retry may help without parsing messages.
 */
export type NoteEngineErrorCode =
  | "engine_unavailable"
  | "engine_failed"
  | "engine_rejected"
  | "engine_timeout"
  | "engine_rate_limited"
  | "engine_bad_response"
  | "cancelled";

const statusByCode: Record<NoteEngineErrorCode, number> = {
  engine_unavailable: 503,
  engine_failed: 502,
  engine_rejected: 502,
  engine_timeout: 504,
  engine_rate_limited: 503,
  engine_bad_response: 502,
  cancelled: 499,
};

const retryableCodes: ReadonlySet<NoteEngineErrorCode> = new Set([
  "engine_unavailable",
  "engine_failed",
  "engine_timeout",
  "engine_rate_limited",
]);

export class NoteEngineError extends AppError {
  override readonly code: NoteEngineErrorCode;
  /** Short machine-readable detail for logs and the stored failure (e.g. "HTTP 503"), never transcript text. */
  readonly reason: string;
  readonly retryable: boolean;

  constructor(code: NoteEngineErrorCode, reason: string, options?: { cause?: unknown }) {
    super(statusByCode[code], code, `${code}: ${reason}`);
    this.name = "NoteEngineError";
    this.code = code;
    this.reason = reason;
    this.retryable = retryableCodes.has(code);
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

export function isNoteEngineError(value: unknown, code?: NoteEngineErrorCode): value is NoteEngineError {
  return value instanceof NoteEngineError && (code === undefined || value.code === code);
}

/** The error to throw when an AbortSignal fired: keeps the caller's reason when it already is a NoteEngineError. */
export function noteAbortError(signal: AbortSignal): NoteEngineError {
  const reason: unknown = signal.reason;
  if (reason instanceof NoteEngineError) return reason;
  return new NoteEngineError("cancelled", reason instanceof Error ? reason.message : "cancelled by caller");
}

/** A section the engine could not write: it comes back without generated sentences, the rest of the note stands. */
export interface SectionFailure {
  key: string;
  code: NoteEngineErrorCode;
  reason: string;
}

/**
 * What an engine may return beyond model.ts's NoteDraft. The extractive engine never fails a
 * section; a remote engine lists here each section whose generation failed, so the notes service
 * can store the failure and offer "regenerate this section".
 */
export interface NoteDraftWithFailures extends NoteDraft {
  failures?: SectionFailure[];
}

/** The failed sections of any engine's draft ([] when the engine reports none). */
export function draftFailures(draft: NoteDraft): SectionFailure[] {
  return (draft as NoteDraftWithFailures).failures ?? [];
}
