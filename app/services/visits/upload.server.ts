import { recordAudit } from "#app/services/orgs/audit.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import type { BlobStore } from "#app/services/storage/blob-store.ts";
import { audioKey } from "#app/services/storage/keys.ts";
import { BodyTooLargeError, type SpooledFile, spoolToScratch } from "#app/services/storage/spool.server.ts";
import { checkVisitId, requireClinicalRole } from "./access.server.ts";
import { plainAudioType, sniffAudioFormat } from "./audio-format.ts";
import { visitErrors } from "./errors.server.ts";
import { enqueueIfWaiting, type UploadResult } from "./finish.server.ts";
import { assertOrgCanStartRecording } from "./recording-allowance.server.ts";
import { isClosed, loadVisit, type VisitRow, visitAudio } from "./visit-rows.server.ts";

/** Issue 5: an existing recording of up to 500 MB. */
export const MAX_AUDIO_FILE_BYTES = 500 * 1024 * 1024;

/** The same file again (the client missed the answer) is answered like the first upload. */
function sameFile(visit: VisitRow, sha256: string): boolean {
  return isClosed(visit.status) && visit.audio_source === "file" && visit.audio_sha256 === sha256;
}

/**
 * POST /api/visits/:id/audio (issue 5 "upload an existing file"): the raw body, streamed to disk
 * (never held in memory) up to 500 MB, recognised by its first bytes (415 otherwise), becomes the
 * visit's audio; the visit moves to `uploaded` and its transcription is queued. A draft or failed
 * visit takes a file; one being recorded by chunks or already complete does not (409 visit_closed).
 */
export async function uploadAudioFile(
  args: OrgServiceArgs & {
    orgId: string;
    visitId: string;
    contentType: string | null;
    contentLength: number | null;
    body: ReadableStream<Uint8Array> | null;
    store: BlobStore;
    now?: Date;
  },
): Promise<UploadResult> {
  checkOrgId(args.orgId);
  checkVisitId(args.visitId);
  const now = args.now ?? new Date();
  // Exactly one plain audio type (415 otherwise): never served back (audio-playback.server.ts), kept for the record.
  const contentType = plainAudioType(args.contentType);
  await asActor(args, args.orgId, async (trx) => {
    await requireClinicalRole(trx, args.orgId, args.actor.userId);
    const visit = await loadVisit(trx, args.orgId, args.visitId);
    if (visit.status === "draft") await assertOrgCanStartRecording(trx, visit.org_id, now);
  });
  if (!contentType) throw visitErrors.unsupportedMediaType();
  if (args.contentLength !== null && args.contentLength > MAX_AUDIO_FILE_BYTES) {
    throw visitErrors.fileTooLarge(MAX_AUDIO_FILE_BYTES);
  }
  let spooled: SpooledFile;
  try {
    spooled = await spoolToScratch(args.store, args.body, MAX_AUDIO_FILE_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw visitErrors.fileTooLarge(MAX_AUDIO_FILE_BYTES);
    throw error;
  }
  try {
    if (spooled.bytes === 0) throw visitErrors.emptyAudio();
    if (!sniffAudioFormat(spooled.head)) throw visitErrors.unsupportedAudio();
    const visit = await asActor(args, args.orgId, async (trx) => {
      await requireClinicalRole(trx, args.orgId, args.actor.userId);
      const locked = await loadVisit(trx, args.orgId, args.visitId, { lock: true });
      if (sameFile(locked, spooled.sha256)) return locked;
      if (isClosed(locked.status) || locked.status === "recording") throw visitErrors.visitClosed(locked.status);
      if (locked.status === "draft") await assertOrgCanStartRecording(trx, locked.org_id, now);
      const key = audioKey(locked.org_id, locked.id, spooled.sha256);
      await args.store.putFile(key, spooled.path);
      const updated = await trx
        .updateTable("visits")
        .set({
          status: "uploaded",
          audio_source: "file",
          audio_chunk_count: 0,
          audio_bytes: spooled.bytes,
          audio_duration_ms: null,
          audio_sha256: spooled.sha256,
          audio_key: key,
          audio_content_type: contentType,
          audio_manifest: null,
          recording_started_at: locked.recording_started_at ?? now,
          uploaded_at: now,
          failure_code: null,
          failure_reason: null,
        })
        .where("org_id", "=", locked.org_id)
        .where("id", "=", locked.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        orgId: locked.org_id,
        actorId: args.actor.userId,
        action: "visit.audio_uploaded",
        entity: "visit",
        entityId: locked.id,
        details: { source: "file", bytes: spooled.bytes, sha256: spooled.sha256, content_type: contentType },
        meta: args.meta,
      });
      return updated;
    });
    await enqueueIfWaiting(args.db, visit);
    return { id: visit.id, status: visit.status, audio: visitAudio(visit) };
  } finally {
    await spooled.discard();
  }
}
