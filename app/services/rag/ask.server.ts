import { sql } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import { isUuid } from "#app/services/auth/uuid.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs, requireMemberRole } from "#app/services/orgs/context.server.ts";
import { orgErrors } from "#app/services/orgs/errors.server.ts";
import { auditRefs, recordRead } from "#app/services/orgs/read-audit.server.ts";
import { inSection, type SectionRoute, sectionRoute } from "./answer/intent.ts";
import type { EmbeddingsClient } from "./embeddings/client.server.ts";
import type { AnswerEngine } from "./engines/types.ts";
import { ragErrors } from "./errors.server.ts";
import { type ExpandedQuery, expandQuery } from "./expand.ts";
import { embedQuestion, rankHybrid } from "./hybrid.server.ts";
import { checkFilters, checkQuery } from "./input.ts";
import {
  ASK_TOP_K,
  type AskFilters,
  type AskResponse,
  type AskScope,
  type Citation,
  type RankedPassage,
  SEARCH_LIMIT_MAX,
} from "./model.ts";
import type { RagLanguage } from "./phrases.server.ts";
import { chooseScope } from "./scope.ts";
import { rankHelp, recordTypesFor, wantedTypes } from "./search.server.ts";
import { sectionFirst } from "./section-first.server.ts";

// Ask Murmur (SPEC §4 "Ask flow", §7 /api/rag/ask and /api/rag/search): validate, pick the
// scope, rank what the caller may read (organisation and role filter inside the query), then let
// the answer engine write from those passages only. The engine runs after the transaction, so a
// slow model never holds a database connection.

type AskArgs = OrgServiceArgs & {
  orgId: string;
  query: unknown;
  filters?: unknown;
  patientId?: string | null;
  scope?: AskScope | null;
  language: RagLanguage;
  /** Dense retrieval (EMBEDDINGS_*); absent or null ranks on full text alone. */
  embeddings?: EmbeddingsClient | null;
  signal?: AbortSignal;
};

interface Retrieved {
  question: string;
  query: ExpandedQuery;
  scope: AskScope;
  passages: RankedPassage[];
  /** The organisation's time zone (organizations.timezone). */
  timeZone: string;
}

/** How many notes' named section an answer reads whole. */
const SECTIONS_READ = 2;

/**
 * The whole section behind the best passages of the section a question names (issue 28), so the
 * answer reads "the plan", not one sentence of it. Same transaction, same row-level security.
 */
async function withSections(trx: ActorTransaction, orgId: string, route: SectionRoute | null, passages: RankedPassage[]) {
  if (!route) return passages;
  const wanted = [...new Map(passages.filter((p) => inSection(route, p)).map((p) => [`${p.sourceId} ${p.field}`, p])).values()];
  for (const p of wanted.slice(0, SECTIONS_READ)) {
    const { rows } = await sql<{ text: string }>`
      select text from public.record_chunks
      where org_id = ${orgId} and source_table = 'doctor_notes' and source_id = ${p.sourceId} and field = ${p.field}
      order by position limit 40`.execute(trx);
    const section = rows.map((r) => r.text);
    for (const q of passages) if (q.sourceId === p.sourceId && q.field === p.field) q.section = section;
  }
  return passages;
}

function readInput(args: AskArgs): { question: string; filters: AskFilters } {
  checkOrgId(args.orgId);
  const q = checkQuery(args.query);
  if ("code" in q) throw q.code === "query_empty" ? ragErrors.queryEmpty() : ragErrors.queryTooLong(2000);
  const f = checkFilters(args.filters);
  if ("code" in f) throw ragErrors.badFilters(f.detail ?? "");
  if (args.patientId != null && !isUuid(args.patientId)) throw ragErrors.patientNotFound();
  return { question: q.query, filters: f.filters };
}

async function retrieve(
  args: AskArgs,
  options: { limit: number; debug?: boolean; audit: "rag.ask" | "rag.search" },
): Promise<Retrieved> {
  const { question, filters } = readInput(args);
  const scope = chooseScope({ scope: args.scope, patientId: args.patientId, filters, question });
  const query = expandQuery(question);
  // Embedded before the transaction opens, so a slow embeddings server never holds a connection.
  const dense = scope === "records" ? await embedQuestion(args.embeddings, question, args.signal) : null;
  const route = scope === "records" ? sectionRoute(question) : null;
  let timeZone = "UTC";
  const passages = await asActor(args, args.orgId, async (trx) => {
    const role = await requireMemberRole(trx, args.orgId, args.actor.userId);
    if (options.debug && role !== "owner") throw ragErrors.debugForbidden();
    if (scope === "help") return rankHelp(trx, { query, language: args.language, limit: Math.min(options.limit, 3) });
    const types = recordTypesFor(role);
    if (types.length === 0) throw orgErrors.forbiddenRole();
    if (args.patientId) {
      const patient = await trx
        .selectFrom("patients")
        .select("id")
        .where("org_id", "=", args.orgId)
        .where("id", "=", args.patientId)
        .executeTakeFirst();
      if (!patient) throw ragErrors.patientNotFound();
    }
    const org = await trx.selectFrom("organizations").select("timezone").where("id", "=", args.orgId).executeTakeFirst();
    timeZone = org?.timezone ?? "UTC";
    const hits = await rankHybrid(trx, {
      dense,
      orgId: args.orgId,
      types,
      query,
      patientId: args.patientId,
      filters,
      limit: options.limit,
      debug: options.debug,
    });
    const ranked = await sectionFirst(
      trx,
      { orgId: args.orgId, route, types: wantedTypes(types, filters), patientId: args.patientId, limit: options.limit },
      hits,
    );
    // One row per question whatever it returned; the question itself is not kept (it may name a patient).
    await recordRead(trx, args, {
      action: options.audit,
      entity: "records",
      entityId: null,
      patientId: args.patientId ?? null,
      details: {
        results: ranked.length,
        patients: auditRefs(ranked.map((p) => p.patientId)),
        sources: auditRefs(ranked.map((p) => p.id)),
      },
    });
    return options.audit === "rag.ask" ? withSections(trx, args.orgId, route, ranked) : ranked;
  });
  return { question, query, scope, passages, timeZone };
}

export function toCitation(p: RankedPassage, withContent = false): Citation & { features?: Record<string, number> } {
  return {
    id: p.id,
    // A note cites its section's title; a transcript and a case (whose label is its status) their visit.
    title: p.table === "doctor_notes" ? p.label || p.visitName : p.visitName,
    snippet: p.text.length > 240 ? `${p.text.slice(0, 237)}…` : p.text,
    created_at: p.date,
    ...(withContent ? { content: p.text } : {}),
    source: {
      table: p.table,
      id: p.sourceId,
      field: p.field,
      visit_name: p.visitName,
      visit_id: p.visitId,
      patient_id: p.patientId,
      ...(p.start !== null ? { start: p.start } : {}),
      ...(p.end !== null ? { end: p.end } : {}),
    },
    ...(p.features ? { features: p.features } : {}),
  };
}

/**
 * Keeps the cited passages, in relevance order, and renumbers the answer's [n] markers to their
 * place in that list, so marker [2] is the second chip.
 */
export function citeUsed(answer: string, passages: RankedPassage[]): { answer: string; citations: Citation[] } {
  const used = [...new Set([...answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]) - 1))]
    .filter((i) => i >= 0 && i < passages.length)
    .sort((a, b) => a - b);
  const renumber = new Map(used.map((old, index) => [old, index + 1]));
  const text = answer.replace(/\[(\d+)\]/g, (_whole, n: string) => {
    const to = renumber.get(Number(n) - 1);
    return to ? `[${to}]` : "";
  });
  return { answer: text, citations: used.map((i) => toCitation(passages[i] as RankedPassage)) };
}

/** POST /api/rag/ask. */
export async function ask(args: AskArgs & { engine: AnswerEngine }): Promise<AskResponse> {
  const found = await retrieve(args, { limit: ASK_TOP_K, audit: "rag.ask" });
  const out = await args.engine.answer({
    question: found.question,
    query: found.query,
    passages: found.passages,
    scope: found.scope,
    language: args.language,
    timeZone: found.timeZone,
    signal: args.signal,
  });
  const { answer, citations } = out.unanswered ? { answer: out.answer, citations: [] } : citeUsed(out.answer, found.passages);
  return {
    answer,
    citations,
    usedFallback: out.usedFallback,
    support: out.unanswered && found.scope === "help" ? { url: "/support" } : null,
    scope: found.scope,
  };
}

/** POST /api/rag/search: the ranked passages without an answer; `debug` (owners) adds the ranking features. */
export async function search(
  args: AskArgs & { limit?: number; debug?: boolean },
): Promise<AskResponse & { citations: (Citation & { features?: Record<string, number> })[] }> {
  const limit = Math.min(Math.max(args.limit ?? ASK_TOP_K, 1), SEARCH_LIMIT_MAX);
  const found = await retrieve(args, { limit, debug: args.debug, audit: "rag.search" });
  return {
    answer: "",
    citations: found.passages.map((p) => toCitation(p)),
    usedFallback: false,
    support: null,
    scope: found.scope,
  };
}
