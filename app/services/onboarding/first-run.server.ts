import { asActor, checkOrgId, type OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { SAMPLE_PATIENT_EXTERNAL_ID } from "./sample-visit.server.ts";

/**
 * Issue 11 "First run": the dashboard's three steps, each done when the organisation has done it
 * (not when a box was ticked): a patient exists; a visit has reached the server as audio
 * (recorded, uploaded, or the bundled sample) or a transcript; a note has been signed.
 */
export interface FirstRunProgress {
  patient: boolean;
  visit: boolean;
  note: boolean;
}

export function getFirstRunProgress(args: OrgServiceArgs & { orgId: string }): Promise<FirstRunProgress> {
  checkOrgId(args.orgId);
  return asActor(args, args.orgId, async (trx) => {
    const [patient, visit, note] = await Promise.all([
      // The sample patient of "Try a sample visit" is Murmur's, not one the practice added.
      trx
        .selectFrom("patients")
        .select("id")
        .where("org_id", "=", args.orgId)
        .where((eb) => eb.or([eb("external_id", "is", null), eb("external_id", "!=", SAMPLE_PATIENT_EXTERNAL_ID)]))
        .limit(1)
        .executeTakeFirst(),
      trx
        .selectFrom("visits")
        .select("id")
        .where("org_id", "=", args.orgId)
        .where("status", "in", ["uploaded", "transcribing", "transcribed"])
        .limit(1)
        .executeTakeFirst(),
      trx
        .selectFrom("notes")
        .select("id")
        .where("org_id", "=", args.orgId)
        .where("status", "in", ["signed", "amended"])
        .limit(1)
        .executeTakeFirst(),
    ]);
    return { patient: Boolean(patient), visit: Boolean(visit), note: Boolean(note) };
  });
}
