import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { Database } from "#app/db/database.server.ts";
import type { VisitStatus } from "#app/db/schema.ts";
import { enqueueTranscribeVisit } from "#app/services/jobs/enqueue.server.ts";
import { recordAudit } from "#app/services/orgs/audit.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import type { BlobStore } from "#app/services/storage/blob-store.ts";
import { audioKey } from "#app/services/storage/keys.ts";
import { checkVisitId, requireClinicalRole } from "./access.server.ts";
import { assembleChunks, type StoredChunk } from "./assemble.server.ts";
import { AUDIO_FORMAT_TYPES, plainAudioType, sniffAudioFormat } from "./audio-format.ts";
import { visitErrors } from "./errors.server.ts";
import { isClosed, loadVisit, type VisitAudio, type VisitRow, visitAudio } from "./visit-rows.server.ts";

/** What the recorder sends at Stop (issue 5 "Recording"). */
export interface AudioManifest {
  chunks: number;
  bytes?: number;
  duration_ms?: number;
  /** The SHA-256 of every chunk in order, when the client kept them: checked one by one. */
  chunk_sha256?: string[];
  /** MediaRecorder's mimeType, e.g. "audio/webm;codecs=opus". */
  mime_type?: string;
  /** Recorded stretches between pauses, in ms from the start; kept for diagnosis. */
  segments?: { start_ms: number; end_ms: number }[];
}

export interface UploadResult {
  id: string;
  status: VisitStatus;
  audio: VisitAudio;
}

/** Lists in error answers stay short; the count says how many there are in all. */
const LIST_MAX = 1000;

function resultOf(row: VisitRow): UploadResult {
  return { id: row.id, status: row.status, audio: visitAudio(row) };
}

/** Finishing again with the same manifest answers what the first finish did (the client may have missed it). */
function alreadyFinished(visit: VisitRow, manifest: AudioManifest): boolean {
  return isClosed(visit.status) && visit.audio_source === "chunks" && visit.audio_chunk_count === manifest.chunks;
}

/** Every way the stored chunks can disagree with the manifest, as one 409. */
function checkAgainstManifest(chunks: StoredChunk[], manifest: AudioManifest): void {
  const have = new Set(chunks.map((c) => c.seq));
  const missing: number[] = [];
  for (let seq = 0; seq < manifest.chunks; seq += 1) if (!have.has(seq)) missing.push(seq);
  if (missing.length) throw visitErrors.chunksMissing(missing.slice(0, LIST_MAX));
  const extra = chunks.filter((c) => c.seq >= manifest.chunks).map((c) => c.seq);
  if (extra.length) throw visitErrors.manifestMismatch({ extra: extra.slice(0, LIST_MAX) });
  if (manifest.chunk_sha256) {
    if (manifest.chunk_sha256.length !== manifest.chunks) {
      throw visitErrors.manifestMismatch({ chunk_sha256: "one SHA-256 per chunk expected" });
    }
    const mismatched = chunks.filter((c) => manifest.chunk_sha256?.[c.seq]?.toLowerCase() !== c.sha256).map((c) => c.seq);
    if (mismatched.length) throw visitErrors.manifestMismatch({ mismatched: mismatched.slice(0, LIST_MAX) });
  }
  const bytes = chunks.reduce((sum, c) => sum + c.bytes, 0);
  if (manifest.bytes !== undefined && manifest.bytes !== bytes) {
    throw visitErrors.manifestMismatch({ bytes_expected: manifest.bytes, bytes_received: bytes });
  }
}

function loadChunks(trx: ActorTransaction, visit: VisitRow): Promise<StoredChunk[]> {
  return trx
    .selectFrom("visit_audio_chunks")
    .select(["seq", "sha256", "bytes", "storage_key"])
    .where("org_id", "=", visit.org_id)
    .where("visit_id", "=", visit.id)
    .orderBy("seq")
    .execute();
}

/**
 * POST /api/visits/:id/audio/finish (issue 5 "Stop sends a manifest"): checks that every chunk
 * 0..n-1 is here (409 chunks_missing with the list otherwise) and agrees with the manifest,
 * concatenates them in order into the visit's audio, records its SHA-256, moves the visit to
 * `uploaded` and queues its transcription. Idempotent: finishing again answers the same.
 */
export async function finishChunkedUpload(
  args: OrgServiceArgs & { orgId: string; visitId: string; manifest: AudioManifest; store: BlobStore },
): Promise<UploadResult> {
  checkOrgId(args.orgId);
  checkVisitId(args.visitId);
  const { manifest } = args;
  // Exactly one plain audio type or none (415 otherwise): kept for the record, never served back.
  const mimeType = plainAudioType(manifest.mime_type);
  const before = await asActor(args, args.orgId, async (trx) => {
    await requireClinicalRole(trx, args.orgId, args.actor.userId);
    const visit = await loadVisit(trx, args.orgId, args.visitId);
    if (manifest.mime_type !== undefined && !mimeType) throw visitErrors.unsupportedManifestType();
    if (alreadyFinished(visit, manifest)) return { visit, chunks: null };
    if (isClosed(visit.status)) throw visitErrors.visitClosed(visit.status);
    const chunks = await loadChunks(trx, visit);
    checkAgainstManifest(chunks, manifest);
    return { visit, chunks };
  });
  if (!before.chunks) {
    await enqueueIfWaiting(args.db, before.visit);
    return resultOf(before.visit);
  }

  const assembled = await assembleChunks(args.store, before.chunks);
  try {
    const key = audioKey(before.visit.org_id, before.visit.id, assembled.sha256);
    await args.store.putFile(key, assembled.path);
    const format = sniffAudioFormat(assembled.head);
    const visit = await asActor(args, args.orgId, async (trx) => {
      await requireClinicalRole(trx, args.orgId, args.actor.userId);
      const locked = await loadVisit(trx, args.orgId, args.visitId, { lock: true });
      if (alreadyFinished(locked, manifest)) return locked;
      if (isClosed(locked.status)) throw visitErrors.visitClosed(locked.status);
      // A chunk acknowledged while this one assembled would be missing from the audio.
      const now = await loadChunks(trx, locked);
      checkAgainstManifest(now, manifest);
      if (now.some((c, i) => c.sha256 !== before.chunks?.[i]?.sha256)) throw visitErrors.manifestMismatch({ changed: true });
      const updated = await trx
        .updateTable("visits")
        .set({
          status: "uploaded",
          audio_source: "chunks",
          audio_chunk_count: manifest.chunks,
          audio_bytes: assembled.bytes,
          audio_duration_ms: manifest.duration_ms ?? null,
          audio_sha256: assembled.sha256,
          audio_key: key,
          audio_content_type: mimeType ?? (format ? AUDIO_FORMAT_TYPES[format].type : null),
          audio_manifest: JSON.stringify({
            chunks: manifest.chunks,
            bytes: manifest.bytes ?? null,
            duration_ms: manifest.duration_ms ?? null,
            segments: manifest.segments ?? [],
          }),
          recording_started_at: locked.recording_started_at ?? new Date(),
          uploaded_at: new Date(),
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
        details: { source: "chunks", chunks: manifest.chunks, bytes: assembled.bytes, sha256: assembled.sha256 },
        meta: args.meta,
      });
      return updated;
    });
    await enqueueIfWaiting(args.db, visit);
    return resultOf(visit);
  } finally {
    await assembled.discard();
  }
}

/** After the commit: the visit's status is the durable record, the job only a notification of it. */
export async function enqueueIfWaiting(db: Database, visit: VisitRow): Promise<void> {
  if (visit.status !== "uploaded") return;
  await enqueueTranscribeVisit(db, { orgId: visit.org_id, visitId: visit.id });
}
