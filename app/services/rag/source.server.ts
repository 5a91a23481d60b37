import { sql } from "kysely";
import { isUuid } from "#app/services/auth/uuid.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs, requireMemberRole } from "#app/services/orgs/context.server.ts";
import { recordRead } from "#app/services/orgs/read-audit.server.ts";
import { isoDate } from "#app/services/patients/iso-date.ts";
import { ragErrors } from "./errors.server.ts";
import type { CitationTable } from "./model.ts";
import { recordTypesFor } from "./search.server.ts";

// GET /api/rag/source?id= (SPEC §2 "Source modal", §7): the cited passage with the passages
// around it, its title, day and where it lives. Another organisation's id, an id the role may
// not read (a note for staff, anything clinical for admins) and an unknown id are the same 404.

export interface SourceView {
  id: string;
  title: string;
  content: string;
  created_at: string;
  metadata: {
    table: CitationTable;
    id: string;
    field: string;
    visit_name: string;
    visit_id: string | null;
    start?: number;
    end?: number;
    note_status?: string;
    /** A coding case's status (open, coded, exported). */
    case_status?: string;
  };
}

/** Passages on each side of the cited one shown with it. */
const CONTEXT = 2;
const HELP_ID = /^[a-z0-9_-]{1,80}$/;

export function getSource(args: OrgServiceArgs & { orgId: string; id: string }): Promise<SourceView> {
  checkOrgId(args.orgId);
  const id = args.id.trim();
  if (!isUuid(id) && !HELP_ID.test(id)) throw ragErrors.sourceNotFound();
  return asActor(args, args.orgId, async (trx) => {
    const role = await requireMemberRole(trx, args.orgId, args.actor.userId);
    if (!isUuid(id)) {
      const help = await trx.selectFrom("help").selectAll().where("id", "=", id).executeTakeFirst();
      if (!help) throw ragErrors.sourceNotFound();
      return {
        id: help.id,
        title: help.title,
        content: help.body,
        created_at: help.updated_at.toISOString().slice(0, 10),
        metadata: { table: "help", id: help.id, field: "body", visit_name: help.title, visit_id: null },
      };
    }
    const types = recordTypesFor(role);
    if (types.length === 0) throw ragErrors.sourceNotFound();
    const { rows } = await sql<{
      id: string;
      source_table: "transcriptions" | "doctor_notes" | "cases";
      source_id: string;
      field: string;
      label: string;
      note_status: string | null;
      position: number;
      start_s: number | null;
      end_s: number | null;
      visit_id: string;
      visit_date: string;
      visit_name: string;
      text: string;
    }>`
      select c.id, c.source_table, c.source_id, c.field, c.label, c.note_status, c.position, c.start_s, c.end_s,
             c.visit_id, c.visit_date::text as visit_date, coalesce(nullif(v.title, ''), p.display_name) as visit_name, c.text
      from public.record_chunks c
      join public.visits v on v.org_id = c.org_id and v.id = c.visit_id
      join public.patients p on p.org_id = v.org_id and p.id = v.patient_id
      where c.org_id = ${args.orgId} and c.id = ${id} and c.record_type in (${sql.join(types)})`.execute(trx);
    const row = rows[0];
    if (!row) throw ragErrors.sourceNotFound();
    // Help articles are product text; a record's passage is patient data.
    await recordRead(trx, args, { action: "rag.source", entity: "records", entityId: row.id, visitId: row.visit_id });
    const around = await trx
      .selectFrom("record_chunks")
      .select(["text", "field"])
      .where("org_id", "=", args.orgId)
      .where("source_table", "=", row.source_table)
      .where("source_id", "=", row.source_id)
      .where("position", ">=", row.position - CONTEXT)
      .where("position", "<=", row.position + CONTEXT)
      .orderBy("position")
      .execute();
    // A note's context stays within its section: the next section is another subject.
    const content = around
      .filter((r) => row.source_table !== "doctor_notes" || r.field === row.field)
      .map((r) => r.text)
      .join(" ");
    return {
      id: row.id,
      title: row.source_table === "doctor_notes" ? row.label || row.visit_name : row.visit_name,
      content,
      created_at: isoDate(row.visit_date) ?? "",
      metadata: {
        table: row.source_table,
        id: row.source_id,
        field: row.field,
        visit_name: row.visit_name,
        visit_id: row.visit_id,
        ...(row.start_s !== null ? { start: row.start_s } : {}),
        ...(row.end_s !== null ? { end: row.end_s } : {}),
        ...(row.note_status ? { note_status: row.note_status } : {}),
        ...(row.source_table === "cases" ? { case_status: row.label } : {}),
      },
    };
  });
}
