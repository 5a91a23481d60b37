import { sql } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { NoteTemplatesTable } from "#app/db/schema.ts";
import { isUuid } from "#app/services/auth/uuid.server.ts";
import type { NoteTemplate, TemplateSection } from "../model.ts";

// Reading and writing note_templates rows; every query filters by organisation as well as
// relying on row-level security (CONVENTIONS "tenant safety is two layers").

export interface TemplateRow {
  id: string;
  org_id: string;
  owner_user_id: string | null;
  name: string;
  language: NoteTemplatesTable["language"];
  description: string;
  sections: unknown[];
  based_on: string | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  archived_at: Date | null;
}

/** A stored row visible to the actor (RLS: organisation templates and their own), or null. */
export async function loadTemplateRow(
  trx: ActorTransaction,
  orgId: string,
  id: string,
  options: { includeArchived?: boolean } = {},
): Promise<TemplateRow | null> {
  if (!isUuid(id)) return null;
  let query = trx.selectFrom("note_templates").selectAll().where("org_id", "=", orgId).where("id", "=", id);
  if (!options.includeArchived) query = query.where("archived_at", "is", null);
  return ((await query.executeTakeFirst()) as TemplateRow | undefined) ?? null;
}

export function rowToTemplate(row: TemplateRow): NoteTemplate {
  return {
    id: row.id,
    name: row.name,
    language: row.language,
    ...(row.description ? { description: row.description } : {}),
    sections: row.sections as TemplateSection[],
  };
}

export const sectionsJson = (sections: readonly TemplateSection[]) => sql<string>`${JSON.stringify(sections)}::jsonb`;
