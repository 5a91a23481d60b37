import type { ActorTransaction } from "#app/db/actor.server.ts";
import { enqueueTranscribeLive } from "#app/services/jobs/transcribe-live.server.ts";
import { recordAudit } from "#app/services/orgs/audit.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import type { BlobStore } from "#app/services/storage/blob-store.ts";
import { chunkKey } from "#app/services/storage/keys.ts";
import { BodyTooLargeError, type SpooledFile, spoolToScratch } from "#app/services/storage/spool.server.ts";
import { checkVisitId, requireClinicalRole } from "./access.server.ts";
import { visitErrors } from "./errors.server.ts";
import { assertOrgCanStartRecording } from "./recording-allowance.server.ts";
import { isClosed, loadVisit, type VisitRow } from "./visit-rows.server.ts";

/** Issue 5: MediaRecorder slices of at most 5 s are far below this; larger pieces of a file too. */
export const MAX_CHUNK_BYTES = 10 * 1024 * 1024;
export const MAX_CHUNK_SEQ = 99_999;

export interface ChunkAck {
  seq: number;
  acknowledged: true;
  duplicate: boolean;
  bytes: number;
  sha256: string;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

export function parseSeq(raw: string | undefined): number {
  if (raw === undefined || !/^\d{1,5}$/.test(raw)) throw visitErrors.invalidSeq();
  const seq = Number(raw);
  if (seq > MAX_CHUNK_SEQ) throw visitErrors.invalidSeq();
  return seq;
}

export function parseSha256(raw: string | null | undefined): string {
  const value = raw?.trim().toLowerCase() ?? "";
  if (!SHA256_HEX.test(value)) throw visitErrors.checksumRequired();
  return value;
}

async function assertAcceptsChunks(trx: ActorTransaction, visit: VisitRow, now: Date): Promise<void> {
  if (isClosed(visit.status)) throw visitErrors.visitClosed(visit.status);
  if (visit.status === "draft") await assertOrgCanStartRecording(trx, visit.org_id, now);
}

/**
 * PUT /api/visits/:id/audio/chunks/:seq (issue 5 "Recording"). The body is spooled to scratch
 * space and hashed; only when it matches x-chunk-sha256 is it stored and acknowledged, under the
 * visit's lock, so an acknowledged chunk is never replaced: the same bytes again are a duplicate
 * (200), different bytes a 409 chunk_conflict. The first chunk starts the recording.
 */
export async function acceptChunk(
  args: OrgServiceArgs & {
    orgId: string;
    visitId: string;
    seq: number;
    claimedSha256: string;
    contentLength: number | null;
    body: ReadableStream<Uint8Array> | null;
    store: BlobStore;
    now?: Date;
  },
): Promise<ChunkAck> {
  checkOrgId(args.orgId);
  checkVisitId(args.visitId);
  const now = args.now ?? new Date();
  // Refused before reading the body: no access, no such visit, an ended trial. A closed visit is
  // refused only after the body is read, since a resent acknowledged chunk is still a duplicate.
  await asActor(args, args.orgId, async (trx) => {
    await requireClinicalRole(trx, args.orgId, args.actor.userId);
    const visit = await loadVisit(trx, args.orgId, args.visitId);
    if (visit.status === "draft") await assertOrgCanStartRecording(trx, visit.org_id, now);
  });
  if (args.contentLength !== null && args.contentLength > MAX_CHUNK_BYTES) throw visitErrors.chunkTooLarge(MAX_CHUNK_BYTES);
  let spooled: SpooledFile;
  try {
    spooled = await spoolToScratch(args.store, args.body, MAX_CHUNK_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw visitErrors.chunkTooLarge(MAX_CHUNK_BYTES);
    throw error;
  }
  try {
    if (spooled.sha256 !== args.claimedSha256) throw visitErrors.checksumMismatch();
    const ack = await asActor(args, args.orgId, async (trx) => {
      await requireClinicalRole(trx, args.orgId, args.actor.userId);
      const visit = await loadVisit(trx, args.orgId, args.visitId, { lock: true });
      const ack = { seq: args.seq, acknowledged: true as const, bytes: spooled.bytes, sha256: spooled.sha256 };
      const existing = await trx
        .selectFrom("visit_audio_chunks")
        .select("sha256")
        .where("org_id", "=", visit.org_id)
        .where("visit_id", "=", visit.id)
        .where("seq", "=", args.seq)
        .executeTakeFirst();
      // A resend of an acknowledged chunk (the client missed the answer) is fine even once the
      // visit is closed: the client must be able to clear its local copy.
      if (existing?.sha256 === spooled.sha256) return { ...ack, duplicate: true };
      if (existing) throw visitErrors.chunkConflict();
      await assertAcceptsChunks(trx, visit, now);
      const key = chunkKey(visit.org_id, visit.id, args.seq);
      await args.store.putFile(key, spooled.path);
      await trx
        .insertInto("visit_audio_chunks")
        .values({
          org_id: visit.org_id,
          visit_id: visit.id,
          seq: args.seq,
          sha256: spooled.sha256,
          bytes: spooled.bytes,
          storage_key: key,
        })
        .execute();
      if (visit.status === "draft" || visit.status === "failed") {
        await trx
          .updateTable("visits")
          .set({
            status: "recording",
            recording_started_at: visit.recording_started_at ?? now,
            failure_code: null,
            failure_reason: null,
          })
          .where("org_id", "=", visit.org_id)
          .where("id", "=", visit.id)
          .execute();
      }
      if (visit.status === "draft") {
        await recordAudit(trx, {
          orgId: visit.org_id,
          actorId: args.actor.userId,
          action: "visit.recording_started",
          entity: "visit",
          entityId: visit.id,
          details: { first_seq: args.seq },
          meta: args.meta,
        });
      }
      return { ...ack, duplicate: false };
    });
    // After the commit, so the live pass sees the chunk.
    if (!ack.duplicate) await enqueueTranscribeLive(args.db, { orgId: args.orgId, visitId: args.visitId });
    return ack;
  } finally {
    // Gone already when it was moved into the store.
    await spooled.discard();
  }
}
