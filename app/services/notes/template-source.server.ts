import type { OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import type { NoteLanguage, NoteTemplate } from "./model.ts";
import { resolveTemplate } from "./templates/templates.server.ts";

/**
 * The template a new note is generated with (the templates service decides what the actor may
 * use: built-ins in `language`, the organisation's and their own). The note keeps a snapshot.
 */
export function resolveNoteTemplate(
  args: OrgServiceArgs & { orgId: string },
  templateId: string,
  language: NoteLanguage,
): Promise<NoteTemplate | null> {
  return resolveTemplate(args, templateId, language);
}
