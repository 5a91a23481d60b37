import fs from "node:fs";
import { stat } from "node:fs/promises";
import { Readable } from "node:stream";
import type { VisitStatus } from "#app/db/schema.ts";
import type { OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { wordErrors } from "#app/services/speech/wer.ts";
import type { BlobStore } from "#app/services/storage/blob-store.ts";
import { uploadAudioFile } from "#app/services/visits/upload.server.ts";
import { getVisit } from "#app/services/visits/visits.server.ts";
import { AppError } from "#app/utils/app-error.ts";
import { createDiagnosticVisit } from "./diagnostic-visit.server.ts";
import type { RealAudioSample } from "./real-audio-sample.server.ts";

type OrgArgs = OrgServiceArgs & { orgId: string };

/**
 * /test-real-audio's run: a diagnostic visit in English (the sample's language), the sample's WAV
 * uploaded through the same service as POST /api/visits/:id/audio, so the job runner transcribes
 * it like any recording. Returns the visit's id.
 */
export async function startRealAudioRun(
  args: OrgArgs & { sample: RealAudioSample | undefined; store: BlobStore; title: string },
): Promise<string> {
  if (!args.sample) throw new AppError(409, "sample_missing", "pocketsphinx-testdata is not installed");
  const { visitId } = await createDiagnosticVisit({ ...args, language: "en", title: args.title });
  const { size } = await stat(args.sample.path);
  await uploadAudioFile({
    ...args,
    visitId,
    contentType: "audio/wav",
    contentLength: size,
    body: Readable.toWeb(fs.createReadStream(args.sample.path)) as ReadableStream<Uint8Array>,
    store: args.store,
  });
  return visitId;
}

export interface RealAudioRun {
  visitId: string;
  status: VisitStatus;
  failure: { code: string; reason: string | null } | null;
  transcript: string | null;
  /** Against the sample's reference, once there is a transcript. */
  wer: { rate: number; errors: number; words: number } | null;
}

export async function readRealAudioRun(args: OrgArgs & { visitId: string; reference: string | null }): Promise<RealAudioRun> {
  const visit = await getVisit(args);
  const transcript = visit.transcription?.text ?? null;
  let wer: RealAudioRun["wer"] = null;
  if (transcript !== null && args.reference) {
    const e = wordErrors(args.reference, transcript);
    const errors = e.substitutions + e.deletions + e.insertions;
    wer = { rate: e.referenceWords ? errors / e.referenceWords : 0, errors, words: e.referenceWords };
  }
  return { visitId: visit.id, status: visit.status, failure: visit.failure, transcript, wer };
}
