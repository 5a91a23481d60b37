import { AppError } from "#app/utils/app-error.ts";

/** The records Q&A API's stable codes (docs/api.md "Ask Murmur"); the page translates each (rag.json errors.*). */
export const ragErrors = {
  queryEmpty: () => new AppError(400, "query_empty", "Ask a question: the query is empty"),
  queryTooLong: (max: number) => new AppError(400, "query_too_long", `The query may hold at most ${max} characters`),
  badFilters: (why: string) => new AppError(400, "invalid_filters", `Invalid filters: ${why}`),
  patientNotFound: () => new AppError(404, "patient_not_found", "Patient not found"),
  sourceNotFound: () => new AppError(404, "source_not_found", "Source not found"),
  debugForbidden: () => new AppError(403, "forbidden_role", "Ranking details are for the organization's owners"),
};
