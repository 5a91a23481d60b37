import type { AskRecordType } from "./model.ts";

// The /records-qa address (issue 12): patient, question, filters and the opened source live in the
// query string, so a link answers on load. Isomorphic: the loader reads it, the page writes it.

export interface RecordsQaQuery {
  patient: string;
  q: string;
  types: AskRecordType[];
  from: string;
  to: string;
  source: string;
}

export function readRecordsQaQuery(url: URL): RecordsQaQuery {
  const p = url.searchParams;
  const types = p.getAll("type").filter((t): t is AskRecordType => t === "transcription" || t === "doctor_note");
  return {
    patient: (p.get("patient") ?? "").slice(0, 100),
    q: (p.get("q") ?? "").slice(0, 4000),
    types,
    from: (p.get("from") ?? "").slice(0, 20),
    to: (p.get("to") ?? "").slice(0, 20),
    source: (p.get("source") ?? "").slice(0, 100),
  };
}

/** The deep link of a question (what the form's post redirects to). */
export function recordsQaSearch(query: Omit<RecordsQaQuery, "source"> & { source?: string }): string {
  const p = new URLSearchParams();
  if (query.patient) p.set("patient", query.patient);
  if (query.q) p.set("q", query.q);
  for (const t of query.types) p.append("type", t);
  if (query.from) p.set("from", query.from);
  if (query.to) p.set("to", query.to);
  if (query.source) p.set("source", query.source);
  const s = p.toString();
  return s ? `?${s}` : "";
}
