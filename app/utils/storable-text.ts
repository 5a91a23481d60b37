// Free text a client sends (names, titles, notes…) before it reaches the database. PostgreSQL text
// cannot hold NUL, jsonb (the audit log's details) refuses unpaired UTF-16 surrogates ("\ud800" in
// JSON), and no name or note needs other control characters: each would otherwise be a 500 deep
// in a service, or a line break in an e-mail subject. Isomorphic: forms and APIs share it.

/**
 * The stable error code for text refused here, used as the zod message:
 * `z.string().max(200).refine(isStorableLine, { error: INVALID_TEXT })`. Forms translate it as `…errors.invalid_text`.
 */
export const INVALID_TEXT = "invalid_text";

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const LINE_CONTROLS = /[\u0000-\u001f\u007f-\u009f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const TEXT_CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** One line (a name, a title, an id): well-formed Unicode without any C0/C1 control character. */
export function isStorableLine(value: string): boolean {
  return value.isWellFormed() && !LINE_CONTROLS.test(value);
}

/** Multi-line text (notes, transcripts): the same, but tab, line feed and carriage return are allowed. */
export function isStorableText(value: string): boolean {
  return value.isWellFormed() && !TEXT_CONTROLS.test(value);
}
