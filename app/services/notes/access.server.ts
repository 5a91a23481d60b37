import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { OrgRole } from "#app/db/schema.ts";
import { isUuid } from "#app/services/auth/uuid.server.ts";
import { requireMemberRole, requireRole } from "#app/services/orgs/context.server.ts";
import { noteErrors } from "./errors.server.ts";

/**
 * docs/permissions.md "Clinical features": notes (read, generate, edit, rate) and signing belong
 * to owners and clinicians; staff and admins get 403 forbidden_role. 0012_notes.sql enforces the
 * same list underneath.
 */
export const NOTE_ROLES: readonly OrgRole[] = ["owner", "clinician"];
export const SIGNING_ROLES: readonly OrgRole[] = ["owner", "clinician"];

export async function requireNoteRole(trx: ActorTransaction, orgId: string, userId: string): Promise<OrgRole> {
  const role = await requireMemberRole(trx, orgId, userId);
  requireRole(role, NOTE_ROLES);
  return role;
}

/** A malformed id names nothing: the same 404 as an unknown or another tenant's note. */
export function checkNoteId(noteId: string): void {
  if (!isUuid(noteId)) throw noteErrors.noteNotFound();
}
