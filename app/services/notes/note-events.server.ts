import { withActor } from "#app/db/actor.server.ts";
import type { NoteStatus } from "#app/db/schema.ts";
import type { StreamChanges } from "#app/services/events/polling-event-stream.server.ts";
import { rowChanges } from "#app/services/events/progress-notifications.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { checkNoteId, requireNoteRole } from "./access.server.ts";
import { loadNote } from "./note-rows.server.ts";

/** One `status` event of GET /api/notes/:id/events. */
export interface NoteProgressState {
  status: NoteStatus;
  /** The running generation's fraction done (0–1); null while none runs. */
  progress: number | null;
  failure: { code: string; reason: string | null } | null;
}

/** Anything but `generating`: the stream sends its final `done` event and ends. */
export const isFinalNoteStatus = (status: NoteStatus) => status !== "generating";

function stateOf(row: {
  status: NoteStatus;
  progress: number | null;
  failure_code: string | null;
  failure_reason: string | null;
}) {
  return {
    status: row.status,
    progress: row.progress === null ? null : Number(row.progress),
    failure: row.failure_code ? { code: row.failure_code, reason: row.failure_reason } : null,
  };
}

/**
 * Checks that the caller may follow this note (403 for staff and admins, 404 for anything not the
 * organisation's) and returns its state now plus a reader for later polls, each under row-level
 * security as the caller: the state lives on the note row, so any instance serves any stream.
 */
export async function openNoteProgress(
  args: OrgServiceArgs & { orgId: string; noteId: string },
): Promise<{ initial: NoteProgressState; read: () => Promise<NoteProgressState | null>; changes: StreamChanges }> {
  checkOrgId(args.orgId);
  checkNoteId(args.noteId);
  const initial = await asActor(args, args.orgId, async (trx) => {
    await requireNoteRole(trx, args.orgId, args.actor.userId);
    return stateOf(await loadNote(trx, args.orgId, args.noteId));
  });
  const read = async () => {
    const row = await withActor(args.db, { userId: args.actor.userId, orgId: args.orgId }, (trx) =>
      trx
        .selectFrom("notes")
        .select(["status", "progress", "failure_code", "failure_reason"])
        .where("org_id", "=", args.orgId)
        .where("id", "=", args.noteId)
        .executeTakeFirst(),
    );
    return row ? stateOf(row) : null;
  };
  // Woken by the row's change notifications (ADR 0038), whichever process changed it.
  return { initial, read, changes: rowChanges(args.db, "notes", args.noteId) };
}
