import type { OrgRole } from "#app/db/schema.ts";

/**
 * docs/permissions.md "Clinical coding" (decided in issue 13): owners and clinicians code
 * (suggest, open a case, accept/reject/edit/add lines); staff and admins read and export cases,
 * the billing side of a practice. 0018_coding.sql enforces the same lists underneath.
 */
export const CODING_ROLES: readonly OrgRole[] = ["owner", "clinician"];
export const CODING_READ_ROLES: readonly OrgRole[] = ["owner", "clinician", "admin", "staff"];
