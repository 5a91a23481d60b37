import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { OrgRole } from "#app/db/schema.ts";
import { isUuid } from "#app/services/auth/uuid.server.ts";
import { requireMemberRole, requireRole } from "#app/services/orgs/context.server.ts";
import { visitErrors } from "./errors.server.ts";

/**
 * docs/permissions.md "Clinical features": patients and visits belong to owners, clinicians and
 * staff; admins manage the organisation without seeing clinical data (403 forbidden_role).
 * 0007_patients_visits.sql enforces the same list underneath.
 */
export const CLINICAL_ROLES: readonly OrgRole[] = ["owner", "clinician", "staff"];

/** Who may be named as a visit's clinician. */
export const CLINICIAN_ROLES: readonly OrgRole[] = ["owner", "clinician"];

/** The actor's role after checking they may work with clinical data of `orgId`. */
export async function requireClinicalRole(trx: ActorTransaction, orgId: string, userId: string): Promise<OrgRole> {
  const role = await requireMemberRole(trx, orgId, userId);
  requireRole(role, CLINICAL_ROLES);
  return role;
}

/** A malformed id names nothing: the same 404 as an unknown or another tenant's visit. */
export function checkVisitId(visitId: string): void {
  if (!isUuid(visitId)) throw visitErrors.visitNotFound();
}

export function checkPatientId(patientId: string): void {
  if (!isUuid(patientId)) throw visitErrors.patientNotFound();
}
