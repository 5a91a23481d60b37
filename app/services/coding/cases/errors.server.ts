import { AppError } from "#app/utils/app-error.ts";

// Stable error codes of the coding API (docs/api.md "Coding"); the page translates each (coding.json errors.*).
export const codingErrors = {
  caseNotFound: () => new AppError(404, "coding_case_not_found", "Coding case not found"),
  lineNotFound: () => new AppError(404, "coding_line_not_found", "This case has no such line"),
  noteNotSigned: () => new AppError(409, "note_not_signed", "Sign the note before coding it"),
  unknownCode: (code: string) => new AppError(400, "unknown_code", `${code} is not a code of this code system`),
  notBillable: (code: string) => new AppError(400, "code_not_billable", `${code} is a header, not a billable code`),
  duplicateLine: (code: string) => new AppError(409, "duplicate_line", `${code} is already on this case`),
  linesPending: () => new AppError(409, "lines_pending", "Accept or reject every suggestion before marking the case coded"),
  nothingAccepted: () => new AppError(409, "nothing_accepted", "Accept at least one diagnosis before marking the case coded"),
  caseNotCoded: () => new AppError(409, "case_not_coded", "Mark the case coded before exporting it"),
  caseExported: () => new AppError(409, "case_exported", "This case is exported: reopen it to change it"),
  unsupportedSystem: (system: string) =>
    new AppError(400, "unsupported_code_system", `${system} is not available in this organization`),
};
