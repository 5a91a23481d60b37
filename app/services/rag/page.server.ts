import type { RouterContextProvider } from "react-router";
import { runtimeContext } from "#app/runtime/context.ts";
import { requireOrg } from "#app/services/org-context/current-org.ts";
import { orgPageArgs } from "#app/services/org-context/page-args.server.ts";
import { type PatientSummary, searchPatients } from "#app/services/patients/patients.server.ts";
import { isAppError } from "#app/utils/app-error.ts";
import { ask } from "./ask.server.ts";
import { createEmbeddingsClient } from "./embeddings/client.server.ts";
import { createAnswerEngine } from "./engines/registry.server.ts";
import type { AskFilters, AskResponse } from "./model.ts";
import type { RagLanguage } from "./phrases.server.ts";
import { type RecordsQaQuery, readRecordsQaQuery } from "./records-qa-query.ts";
import { getSource, type SourceView } from "./source.server.ts";

// /records-qa (issue 12): the full-page assistant. Everything is in the address — patient, question,
// filters, the opened source — so the page answers on load, works without JavaScript (the form's
// post redirects here) and support can send a link.

export interface RecordsQaPage {
  query: RecordsQaQuery;
  /** Owners, clinicians and staff pick a patient; admins ask product help only. */
  patients: PatientSummary[];
  canAskRecords: boolean;
  result: (AskResponse & { latencyMs: number }) | null;
  error: string | null;
  source: SourceView | null;
  sourceError: string | null;
}

const codeOf = (error: unknown): string => {
  if (isAppError(error)) return error.code;
  throw error;
};

export async function loadRecordsQaPage(
  context: Readonly<RouterContextProvider>,
  request: Request,
  language: RagLanguage,
): Promise<RecordsQaPage> {
  const args = orgPageArgs(context, request);
  const { role } = requireOrg(context);
  const canAskRecords = role !== "admin";
  const query = readRecordsQaQuery(new URL(request.url));
  const patients = canAskRecords ? await searchPatients({ ...args, limit: 100 }) : [];
  let result: RecordsQaPage["result"] = null;
  let error: string | null = null;
  if (query.q.trim()) {
    const filters: AskFilters = {};
    if (query.types.length) filters.record_types = query.types;
    if (query.from) filters.date_from = query.from;
    if (query.to) filters.date_to = query.to;
    const started = performance.now();
    try {
      const answer = await ask({
        ...args,
        query: query.q,
        filters,
        patientId: query.patient || null,
        // An admin's question can only be about the product.
        scope: canAskRecords ? null : "help",
        language,
        engine: createAnswerEngine(context.get(runtimeContext).env),
        embeddings: createEmbeddingsClient(context.get(runtimeContext).env),
        signal: request.signal,
      });
      result = { ...answer, latencyMs: Math.round(performance.now() - started) };
    } catch (e) {
      error = codeOf(e);
    }
  }
  let source: SourceView | null = null;
  let sourceError: string | null = null;
  if (query.source) {
    try {
      source = await getSource({ ...args, id: query.source });
    } catch (e) {
      sourceError = codeOf(e);
    }
  }
  return { query, patients, canAskRecords, result, error, source, sourceError };
}
