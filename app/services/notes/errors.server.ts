import { AppError } from "#app/utils/app-error.ts";

/** The notes API's stable codes (docs/api.md "Notes"). */
export const noteErrors = {
  // Another tenant's, an unknown and a malformed id all get the same 404.
  noteNotFound: () => new AppError(404, "note_not_found", "Note not found"),
  templateNotFound: () => new AppError(404, "template_not_found", "Template not found"),
  sectionNotFound: () => new AppError(404, "section_not_found", "This note has no section with this key"),
  transcriptRequired: () =>
    new AppError(409, "transcript_required", "The visit has no transcript yet: transcribe or import one first"),
  generating: () => new AppError(409, "note_generating", "The note is being generated: wait for the draft"),
  notDraft: () => new AppError(409, "note_not_draft", "Only a draft note can be edited, regenerated or signed"),
  alreadySigned: () => new AppError(409, "note_already_signed", "This note is already signed: amend it instead"),
  notSigned: () => new AppError(409, "note_not_signed", "Only a signed note can be amended"),
  unknownSection: (key: string) => new AppError(400, "unknown_section", `The note has no section "${key}"`),
  noChange: () => new AppError(400, "no_change", "The amendment changes nothing"),
  transcriptTooLong: (max: number) =>
    new AppError(422, "transcript_too_long", `The transcript is too long to generate a note from (at most ${max} characters)`),
  versionRequired: () =>
    new AppError(428, "version_required", "Name the version you edited: an If-Match header or a `version` field"),
  versionConflict: (current: number) =>
    new AppError(409, "version_conflict", `The note changed meanwhile (now version ${current}): reload it and edit again`),
};

/** Failure codes a note may end with; the editor translates each (notes.json failures.*). */
export const NOTE_FAILURE_CODES = [
  "transcript_required",
  "engine_unavailable",
  "engine_failed",
  "engine_rejected",
  "engine_timeout",
  "engine_rate_limited",
  "engine_bad_response",
  "generation_failed",
  "transcript_too_long",
] as const;
