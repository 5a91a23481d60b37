import { withActor } from "#app/db/actor.server.ts";
import type { VisitStatus } from "#app/db/schema.ts";
import type { StreamChanges } from "#app/services/events/polling-event-stream.server.ts";
import { rowChanges } from "#app/services/events/progress-notifications.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { checkVisitId, requireClinicalRole } from "./access.server.ts";
import { loadVisit } from "./visit-rows.server.ts";

/** One `status` event of GET /api/visits/:id/events. */
export interface VisitProgressState {
  status: VisitStatus;
  /** The running job's fraction done (0–1); null while none runs. */
  progress: number | null;
  failure: { code: string; reason: string | null } | null;
}

/** After these the stream sends its final `done` event and ends (the client stops listening). */
export const FINAL_STATUSES: readonly VisitStatus[] = ["transcribed", "failed"];

type ProgressRow = {
  status: VisitStatus;
  transcription_progress: number | null;
  failure_code: string | null;
  failure_reason: string | null;
};

function stateOf(row: ProgressRow): VisitProgressState {
  return {
    status: row.status,
    progress: row.transcription_progress === null ? null : Number(row.transcription_progress),
    failure: row.failure_code ? { code: row.failure_code, reason: row.failure_reason } : null,
  };
}

/**
 * Checks that the caller may follow this visit (403 for admins, 404 for anything not the
 * organisation's) and returns its state now plus a reader for later polls. Each poll reads the
 * row afresh as the caller under row-level security: the state lives in the database, so any
 * instance can serve the stream whichever instance runs the job, and a caller who loses access
 * stops seeing the visit (the reader then answers null).
 */
export async function openVisitProgress(
  args: OrgServiceArgs & { orgId: string; visitId: string },
): Promise<{ initial: VisitProgressState; read: () => Promise<VisitProgressState | null>; changes: StreamChanges }> {
  checkOrgId(args.orgId);
  checkVisitId(args.visitId);
  const initial = await asActor(args, args.orgId, async (trx) => {
    await requireClinicalRole(trx, args.orgId, args.actor.userId);
    return stateOf(await loadVisit(trx, args.orgId, args.visitId));
  });
  const read = async () => {
    const row = await withActor(args.db, { userId: args.actor.userId, orgId: args.orgId }, (trx) =>
      trx
        .selectFrom("visits")
        .select(["status", "transcription_progress", "failure_code", "failure_reason"])
        .where("org_id", "=", args.orgId)
        .where("id", "=", args.visitId)
        .executeTakeFirst(),
    );
    return row ? stateOf(row) : null;
  };
  // Woken by the row's change notifications (ADR 0038), whichever process changed it.
  return { initial, read, changes: rowChanges(args.db, "visits", args.visitId) };
}
