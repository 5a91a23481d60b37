import { ASK_RECORD_TYPES, type AskFilters, type AskRecordType, QUERY_MAX_CHARS } from "./model.ts";

// Checks shared by the API routes and the /records-qa page, so both refuse the same input with
// the same codes (query_empty, query_too_long, invalid_filters).

export type InputProblem = { code: "query_empty" | "query_too_long" | "invalid_filters"; detail?: string };

export function checkQuery(raw: unknown): { query: string } | InputProblem {
  const query = typeof raw === "string" ? raw.replace(/\s+/g, " ").trim() : "";
  if (!query) return { code: "query_empty" };
  if (query.length > QUERY_MAX_CHARS) return { code: "query_too_long" };
  return { query };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
function isDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** Filters as SPEC §3 names them; unknown record types, unreal days or from > to are refused. */
export function checkFilters(raw: unknown): { filters: AskFilters } | InputProblem {
  if (raw === undefined || raw === null) return { filters: {} };
  if (typeof raw !== "object" || Array.isArray(raw)) return { code: "invalid_filters", detail: "filters must be an object" };
  const { record_types, date_from, date_to, ...rest } = raw as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return { code: "invalid_filters", detail: `unknown filter ${Object.keys(rest)[0]}` };
  const filters: AskFilters = {};
  if (record_types !== undefined) {
    if (!Array.isArray(record_types) || record_types.some((t) => !(ASK_RECORD_TYPES as readonly unknown[]).includes(t))) {
      return { code: "invalid_filters", detail: `record_types must list ${ASK_RECORD_TYPES.join(", ")}` };
    }
    filters.record_types = [...new Set(record_types as AskRecordType[])];
  }
  for (const [key, value] of [
    ["date_from", date_from],
    ["date_to", date_to],
  ] as const) {
    if (value === undefined || value === null || value === "") continue;
    if (typeof value !== "string" || !isDay(value)) return { code: "invalid_filters", detail: `${key} must be YYYY-MM-DD` };
    filters[key] = value;
  }
  if (filters.date_from && filters.date_to && filters.date_from > filters.date_to) {
    return { code: "invalid_filters", detail: "date_from is after date_to" };
  }
  return { filters };
}
