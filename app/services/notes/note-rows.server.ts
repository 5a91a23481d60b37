import type { Selectable } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { NoteStatus, NotesTable, NoteVersionKind, NoteVersionsTable, VisitLanguage } from "#app/db/schema.ts";
import type { NoteCheck } from "./checks/checks.server.ts";
import { noteErrors } from "./errors.server.ts";
import type { HeaderMode, NoteSectionDraft, NoteTemplate, Omission } from "./model.ts";
import { headerModes } from "./render.ts";

export type NoteRow = Selectable<NotesTable>;
type VersionRow = Selectable<NoteVersionsTable>;

/** The note, locked for the rest of the transaction when `lock`. 404 when it is not this organisation's. */
export async function loadNote(
  trx: ActorTransaction,
  orgId: string,
  noteId: string,
  options: { lock?: boolean } = {},
): Promise<NoteRow> {
  let query = trx.selectFrom("notes").selectAll().where("org_id", "=", orgId).where("id", "=", noteId);
  if (options.lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw noteErrors.noteNotFound();
  return row;
}

export function loadVersions(trx: ActorTransaction, orgId: string, noteId: string): Promise<VersionRow[]> {
  return trx
    .selectFrom("note_versions")
    .selectAll()
    .where("org_id", "=", orgId)
    .where("note_id", "=", noteId)
    .orderBy("version", "asc")
    .execute();
}

export const sectionsOf = (value: unknown): NoteSectionDraft[] => (Array.isArray(value) ? (value as NoteSectionDraft[]) : []);
export const omissionsOf = (value: unknown): Omission[] => (Array.isArray(value) ? (value as Omission[]) : []);
export const templateOf = (value: unknown): NoteTemplate => value as NoteTemplate;

/** One entry of a note's history. */
export interface NoteVersionSummary {
  version: number;
  kind: NoteVersionKind;
  author_id: string | null;
  created_at: string;
  content_hash: string;
  amendment_reason: string | null;
  edit_distance: Record<string, number> | null;
  /** Signed and amendment versions: the checks as they stood then, acknowledged ones with who acknowledged them (issue 27). */
  checks: NoteCheck[] | null;
}

/** GET /api/notes/:id (docs/api.md "Notes"). */
export interface NoteView {
  id: string;
  status: NoteStatus;
  /** Raised by every change of the text or status; PUT names it (If-Match or `version`). */
  version: number;
  visit_id: string;
  patient_id: string;
  template_id: string;
  template_name: string;
  language: VisitLanguage;
  engine: string | null;
  model: string | null;
  progress: number | null;
  failure: { code: string; reason: string | null } | null;
  sections: NoteSectionDraft[];
  /** Each section's header mode in the note's template: how copy, print and PDF show titles. */
  headers: Record<string, HeaderMode>;
  omissions: Omission[];
  /** Issue 27: every check on the note (open, resolved, acknowledged); open gating ones stop the signature. */
  checks: NoteCheck[];
  rating: number | null;
  rating_comment: string | null;
  versions: NoteVersionSummary[];
  signed_at: string | null;
  signed_by: string | null;
  /** SHA-256 of the signed text (the newest signed or amendment version); null until signed. */
  content_hash: string | null;
  generated_at: string | null;
  created_at: string;
  updated_at: string;
}

export function noteView(row: NoteRow, versions: readonly VersionRow[], checks: readonly NoteCheck[] = []): NoteView {
  const summaries = versions.map(
    (v): NoteVersionSummary => ({
      version: v.version,
      kind: v.kind,
      author_id: v.author_id,
      created_at: v.created_at.toISOString(),
      content_hash: v.content_sha256,
      amendment_reason: v.amendment_reason,
      edit_distance: v.edit_distance,
      checks: (v.checks as NoteCheck[] | null) ?? null,
    }),
  );
  const signed = summaries.filter((v) => v.kind !== "draft_edit").at(-1);
  return {
    id: row.id,
    status: row.status,
    version: Number(row.version),
    visit_id: row.visit_id,
    patient_id: row.patient_id,
    template_id: row.template_id,
    template_name: templateOf(row.template).name,
    language: row.language,
    engine: row.engine,
    model: row.model,
    progress: row.progress === null ? null : Number(row.progress),
    failure: row.failure_code ? { code: row.failure_code, reason: row.failure_reason } : null,
    sections: sectionsOf(row.content),
    headers: headerModes({ sections: templateOf(row.template).sections ?? [] }),
    omissions: omissionsOf(row.omissions),
    checks: [...checks],
    rating: row.rating,
    rating_comment: row.rating_comment,
    versions: summaries,
    signed_at: row.signed_at?.toISOString() ?? null,
    signed_by: row.signed_by,
    content_hash: signed?.content_hash ?? null,
    generated_at: row.generated_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The next version number; the caller holds the note's row lock. */
export async function nextVersion(trx: ActorTransaction, orgId: string, noteId: string): Promise<number> {
  const row = await trx
    .selectFrom("note_versions")
    .select((eb) => eb.fn.max("version").as("max"))
    .where("org_id", "=", orgId)
    .where("note_id", "=", noteId)
    .executeTakeFirst();
  return Number(row?.max ?? 0) + 1;
}
