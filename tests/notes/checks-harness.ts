import { acknowledgeCheck } from "#app/services/notes/checks/acknowledge.server.ts";
import { getNote } from "#app/services/notes/notes.server.ts";
import type { VisitHarness } from "#tests/visits/harness.ts";

/**
 * Acknowledges every open check of a note as org A's clinician (issue 27's sign gate), the way a
 * clinician clears the list before signing; tests about something other than the gate use it.
 */
export async function acknowledgeAllChecks(h: VisitHarness, noteId: string, orgId = h.a.orgId, userId = h.a.users.clinician.id) {
  const args = { db: h.db, actor: { userId }, orgId };
  const note = await getNote({ ...args, noteId });
  for (const check of note.checks.filter((c) => c.status === "open"))
    await acknowledgeCheck({ ...args, noteId, checkId: check.id, reason: null });
}
