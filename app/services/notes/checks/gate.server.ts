import type { ActorTransaction } from "#app/db/actor.server.ts";
import { DetailedAppError } from "#app/services/visits/errors.server.ts";
import type { NoteRow } from "../note-rows.server.ts";
import { blockingChecks, loadChecks, type NoteCheck, recomputeChecks } from "./checks.server.ts";

/**
 * The sign gate (issue 27 "The sign gate"): the checks are recomputed on the text about to be
 * signed, and any open gating check refuses the signature with 409 unresolved_checks `{checks}`.
 * Returns what the signed version keeps: every check not resolved, with who acknowledged it.
 */
export async function requireSignable(trx: ActorTransaction, note: NoteRow, actorId: string): Promise<NoteCheck[]> {
  await recomputeChecks(trx, note, actorId);
  const checks = await loadChecks(trx, note.org_id, note.id);
  const open = blockingChecks(checks);
  if (open.length)
    throw new DetailedAppError(409, "unresolved_checks", "Resolve or acknowledge every check before signing", {
      checks: open,
    });
  return checks.filter((c) => c.status !== "resolved");
}
