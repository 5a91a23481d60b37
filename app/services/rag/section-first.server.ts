import { sql } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { SectionRoute } from "./answer/intent.ts";
import type { AskRecordType, RankedPassage } from "./model.ts";
import { noteSignedAt, type RankedRow, toPassage } from "./search.server.ts";

// Issue 28 "questions about a note section go to that section first": the ranking finds the visit
// the question is about (its words, as for any question); then that visit's note section the
// question names — of its highest-authority note — leads the passages. The first visit in rank
// order that has such a section wins; with nothing ranked, the patient's latest visit that has one
// ("What is the plan?" asked about a patient). Same transaction and row-level security.

export async function sectionFirst(
  trx: ActorTransaction,
  args: { orgId: string; route: SectionRoute | null; types: AskRecordType[]; patientId?: string | null; limit: number },
  ranked: RankedPassage[],
): Promise<RankedPassage[]> {
  const { route } = args;
  if (!route || !args.types.includes("doctor_note")) return ranked;
  const visits = [...new Set(ranked.map((p) => p.visitId).filter((v): v is string => Boolean(v)))];
  if (visits.length === 0 && !args.patientId) return ranked;
  // Two plain lookups by index (notes by visit or patient, then their passages by note id): one
  // query joining them was planned as a scan of the organisation's passages.
  const notes = await trx
    .selectFrom("notes")
    .select("id")
    .where("org_id", "=", args.orgId)
    .where(visits.length ? "visit_id" : "patient_id", "in", visits.length ? visits : [args.patientId ?? ""])
    .where("status", "in", ["draft", "signed", "amended"])
    .execute();
  if (notes.length === 0) return ranked;
  const noteIds = notes.map((n) => n.id);
  const { rows } = await sql<RankedRow>`
    -- A title is folded once per (note, section), not once per sentence.
    with wanted as (
      select s.note_id, s.field from (
        select distinct r.note_id, r.field, r.label from public.record_chunks r
        where r.org_id = ${args.orgId} and r.note_id = any(${noteIds}::uuid[])) s
      where s.field = any(${route.fields}::text[]) or app.rag_fold(s.label) ~ ${route.title})
    select r.id, r.record_type, r.source_table, r.source_id, r.field, r.label, r.note_status, r.visit_id, r.patient_id,
           coalesce(nullif(v.title, ''), p.display_name) as visit_name, r.visit_date::text as visit_date,
           r.start_s, r.end_s, r.language, r.text, r.authority, p.display_name as patient_name,
           ${noteSignedAt("r")} as signed_at
    from wanted w
    join public.record_chunks r on r.org_id = ${args.orgId} and r.note_id = w.note_id and r.field = w.field
    join public.visits v on v.org_id = r.org_id and v.id = r.visit_id
    join public.patients p on p.org_id = v.org_id and p.id = v.patient_id
    order by ${visits.length ? sql`array_position(${visits}::uuid[], r.visit_id),` : sql`r.visit_date desc,`}
             r.authority desc, r.created_at desc, r.position
    limit 1`.execute(trx);
  const row = rows[0];
  if (!row) return ranked;
  const lead = toPassage(row, (ranked[0]?.score ?? 0) + 1);
  return [lead, ...ranked.filter((p) => p.id !== lead.id)].slice(0, args.limit);
}
