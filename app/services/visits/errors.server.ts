import { AppError } from "#app/utils/app-error.ts";

/** An AppError whose JSON answer carries extra fields (e.g. the missing chunk numbers). */
export class DetailedAppError extends AppError {
  readonly details: Record<string, unknown>;
  constructor(status: number, code: string, message: string, details: Record<string, unknown>) {
    super(status, code, message);
    this.details = details;
  }
}

/** The patients and visits API's stable codes (docs/api.md "Patients and visits"). */
export const visitErrors = {
  // Another tenant's, an unknown and a malformed id all get the same 404.
  patientNotFound: () => new AppError(404, "patient_not_found", "Patient not found"),
  visitNotFound: () => new AppError(404, "visit_not_found", "Visit not found"),
  clinicianNotFound: () => new AppError(404, "clinician_not_found", "No owner or clinician of this organization has this id"),
  externalIdTaken: () =>
    new AppError(409, "patient_external_id_taken", "Another patient of this organization has this external id"),
  // Issue 12: a visit recorded elsewhere may carry its own clinical day, never a future one.
  invalidVisitDate: () => new AppError(400, "invalid_visit_date", "visit_date must be a real day as YYYY-MM-DD, from 1900-01-01"),
  invalidDateOfBirth: () =>
    new AppError(
      400,
      "invalid_date_of_birth",
      "date_of_birth must be a real day as YYYY-MM-DD, from 1900-01-01, not after today",
    ),
  visitHasNotes: () =>
    new AppError(409, "visit_has_notes", "This visit has a clinician's note: only an owner or a clinician can delete it"),
  futureVisitDate: () =>
    new AppError(400, "visit_date_in_future", "visit_date cannot be after today in the organization's time zone"),
  consentRequired: () =>
    new AppError(400, "consent_required", "Recording needs the patient's consent: send consent: true once it is given"),
  invalidSeq: () => new AppError(400, "invalid_chunk_seq", "The chunk number must be an integer from 0 to 99999"),
  checksumRequired: () =>
    new AppError(400, "chunk_checksum_required", "Send the chunk's SHA-256 as 64 hex digits in the x-chunk-sha256 header"),
  checksumMismatch: () =>
    new AppError(422, "chunk_checksum_mismatch", "The chunk's SHA-256 does not match x-chunk-sha256: send it again"),
  chunkConflict: () => new AppError(409, "chunk_conflict", "A different chunk was already acknowledged under this number"),
  visitClosed: (status: string) => new AppError(409, "visit_closed", `This visit no longer accepts audio (status ${status})`),
  chunkTooLarge: (limit: number) => new AppError(413, "chunk_too_large", `A chunk may hold at most ${limit} bytes`),
  fileTooLarge: (limit: number) => new AppError(413, "file_too_large", `An audio file may hold at most ${limit} bytes`),
  bodyTooLarge: (limit: number) => new AppError(413, "payload_too_large", `The request body may hold at most ${limit} bytes`),
  chunksMissing: (missing: number[]) =>
    new DetailedAppError(409, "chunks_missing", "Some chunks of the recording have not been received", { missing }),
  manifestMismatch: (details: Record<string, unknown>) =>
    new DetailedAppError(409, "audio_manifest_mismatch", "The server's chunks do not match the manifest", details),
  noAudio: () => new AppError(409, "no_audio", "This visit has no audio"),
  unsupportedMediaType: () =>
    new AppError(
      415,
      "unsupported_media_type",
      "Send the audio as the raw body with one audio/* Content-Type (e.g. audio/wav or audio/webm;codecs=opus)",
    ),
  /** The manifest's `mime_type` is refused like an upload's Content-Type: one plain audio type or nothing. */
  unsupportedManifestType: () =>
    new AppError(
      415,
      "unsupported_media_type",
      "mime_type must be one audio/* type with simple parameters (e.g. audio/webm;codecs=opus), or left out",
    ),
  unsupportedAudio: () =>
    new AppError(415, "audio_unsupported", "This file is not audio Murmur can read (wav, mp3, m4a, webm, ogg, flac)"),
  emptyAudio: () => new AppError(400, "audio_empty", "The audio file is empty"),
};
