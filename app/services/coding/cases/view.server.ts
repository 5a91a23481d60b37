import type { Selectable } from "kysely";
import type { CodingCasesTable, CodingLinesTable } from "#app/db/schema.ts";
import type { Evidence, Suggestion } from "../model.ts";
import type { CodingCaseView, CodingLineView } from "./types.ts";

export type { CodingCaseView, CodingLineView };

export type CaseRow = Selectable<CodingCasesTable>;
export type LineRow = Selectable<CodingLinesTable>;

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function lineView(l: LineRow): CodingLineView {
  return {
    id: l.id,
    position: l.position,
    kind: l.kind,
    system: l.system,
    code: l.code,
    description: l.description,
    state: l.state,
    origin: l.origin,
    suggested_code: l.suggested_code,
    reject_reason: l.reject_reason,
    confidence: l.confidence,
    evidence: (l.evidence ?? []) as Evidence[],
    rationale: l.rationale,
    modifiers: l.modifiers ?? [],
    units: l.units,
    pointers: l.pointers ?? [],
    tooth: l.tooth,
    surfaces: l.surfaces,
    decided_at: iso(l.decided_at),
  };
}

export function caseView(c: CaseRow, lines: readonly LineRow[]): CodingCaseView {
  return {
    id: c.id,
    status: c.status,
    visit_id: c.visit_id,
    note_id: c.note_id,
    engine: c.engine,
    note_version: c.note_version,
    source_text: c.source_text,
    reopened_at: iso(c.reopened_at),
    coded_at: iso(c.coded_at),
    exported_at: iso(c.exported_at),
    created_at: iso(c.created_at) ?? "",
    suggestions: (c.suggestions ?? []) as Suggestion[],
    lines: [...lines].sort((a, b) => a.position - b.position).map(lineView),
  };
}
