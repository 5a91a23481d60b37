import type { VisitLanguage } from "#app/db/schema.ts";
import { readOrgCookie } from "#app/services/org-context/cookie.ts";
import type { MemberOrg } from "#app/services/org-context/current-org.ts";
import { loadMemberOrgs } from "#app/services/org-context/resolve.server.ts";
import type { OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { createPatient } from "#app/services/patients/patients.server.ts";
import { CLINICAL_ROLES } from "#app/services/visits/access.server.ts";
import { createVisit } from "#app/services/visits/visits.server.ts";

// The diagnostic pages (/test-upload, /test-real-audio) sit outside the app layout (SPEC §2: no
// guard), so they resolve the signed-in user's organisation themselves, the way the app layout
// does: the murmur-org cookie when it names one of theirs, else their first organisation.

export interface DiagnosticOrg {
  org: MemberOrg;
  /** Owners, clinicians and staff record visits; admins see no clinical data (docs/permissions.md). */
  canRecord: boolean;
}

export async function diagnosticOrg(args: OrgServiceArgs, cookieHeader: string | null): Promise<DiagnosticOrg | null> {
  const orgs = await loadMemberOrgs(args.db, args.actor.userId);
  const wanted = readOrgCookie(cookieHeader);
  const org = orgs.find((candidate) => candidate.id === wanted) ?? orgs[0];
  return org ? { org, canRecord: CLINICAL_ROLES.includes(org.role) } : null;
}

/**
 * A patient named "Diagnostic" and a visit of theirs whose consent the uploader gives (the audio
 * is the uploader's own test), both audited like any other. Returns the visit's id.
 */
export async function createDiagnosticVisit(
  args: OrgServiceArgs & { orgId: string; language: VisitLanguage; title: string },
): Promise<{ visitId: string; patientId: string }> {
  const patient = await createPatient({ ...args, patient: { display_name: "Diagnostic" } });
  const visit = await createVisit({ ...args, patientId: patient.id, title: args.title, language: args.language, consent: true });
  return { visitId: visit.id, patientId: patient.id };
}
