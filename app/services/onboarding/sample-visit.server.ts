import { createReadStream, existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { asActor, checkOrgId, type OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { createPatient } from "#app/services/patients/patients.server.ts";
import type { BlobStore } from "#app/services/storage/blob-store.ts";
import { requireClinicalRole } from "#app/services/visits/access.server.ts";
import { uploadAudioFile } from "#app/services/visits/upload.server.ts";
import { createVisit, deleteVisit } from "#app/services/visits/visits.server.ts";

/**
 * The sample patient's external id: one per organisation (the unique index on external ids), so a
 * second try reuses them, and the first-run checklist can tell them from the practice's own patients.
 */
export const SAMPLE_PATIENT_EXTERNAL_ID = "MURMUR-SAMPLE";

/**
 * The only sample language: the bundled engine (pocketsphinx) transcribes English only, and a
 * visit keeps its own language whatever the interface's (CONVENTIONS "Clinical content").
 */
export const SAMPLE_VISIT_LANGUAGE = "en";

const ASSET = `sample-visit.${SAMPLE_VISIT_LANGUAGE}.ogg`;

/** The committed audio, beside this module in the source tree or from the working directory in a build. */
export function sampleVisitAudioPath(): string {
  const candidates = [
    fileURLToPath(new URL(`./sample-visit/${ASSET}`, import.meta.url)),
    resolve(`app/services/onboarding/sample-visit/${ASSET}`),
  ];
  return candidates.find((file) => existsSync(file)) ?? join(process.cwd(), "app/services/onboarding/sample-visit", ASSET);
}

async function samplePatientId(args: OrgServiceArgs & { orgId: string; patientName: string }): Promise<string> {
  const existing = await asActor(args, args.orgId, async (trx) => {
    await requireClinicalRole(trx, args.orgId, args.actor.userId);
    return trx
      .selectFrom("patients")
      .select("id")
      .where("org_id", "=", args.orgId)
      .where("external_id", "=", SAMPLE_PATIENT_EXTERNAL_ID)
      .executeTakeFirst();
  });
  if (existing) return existing.id;
  const created = await createPatient({
    ...args,
    patient: { display_name: args.patientName, external_id: SAMPLE_PATIENT_EXTERNAL_ID },
  });
  return created.id;
}

/**
 * Issue 11 "First run": "a bundled sample conversation to try without a microphone". A visit of
 * the sample patient (created once per organisation) whose audio is the team-written dialogue,
 * uploaded through the same service as POST /api/visits/:id/audio: the real pipeline (format
 * check, storage, audit, the recording allowance, the transcription job) runs as for any upload.
 * Consent is the user's: the recording is not of a real patient. Returns the visit's id.
 */
export async function startSampleVisit(
  args: OrgServiceArgs & { orgId: string; store: BlobStore; patientName: string; title: string; now?: Date },
): Promise<{ visitId: string; patientId: string }> {
  checkOrgId(args.orgId);
  const patientId = await samplePatientId(args);
  const { id: visitId } = await createVisit({
    ...args,
    patientId,
    title: args.title,
    language: SAMPLE_VISIT_LANGUAGE,
    consent: true,
  });
  try {
    const audio = sampleVisitAudioPath();
    const { size } = await stat(audio);
    await uploadAudioFile({
      ...args,
      visitId,
      contentType: "audio/ogg",
      contentLength: size,
      body: Readable.toWeb(createReadStream(audio)) as ReadableStream<Uint8Array>,
    });
  } catch (error) {
    // A refused upload (the trial's monthly allowance used up) leaves no empty sample visit behind.
    await deleteVisit({ ...args, visitId });
    throw error;
  }
  return { visitId, patientId };
}
