import type { Database } from "#app/db/database.server.ts";
import type { VisitLanguage } from "#app/db/schema.ts";
import type { WindowCache } from "#app/services/speech/window-cache.ts";
import type { BlobStore } from "#app/services/storage/blob-store.ts";
import { assembleChunks, type StoredChunk } from "#app/services/visits/assemble.server.ts";
import { visitWindowCache } from "#app/services/visits/window-cache.server.ts";
import type { Logger } from "#app/utils/logger.server.ts";
import { TRANSCRIBE_LIVE_DELAY_SECONDS, TRANSCRIBE_LIVE_QUEUE, TranscribeVisitPayloadSchema } from "./queues.ts";
import { runningBoss } from "./registry.server.ts";
import type { TranscribeJob } from "./transcribe-visit.server.ts";

/** The audio received so far (a file in any accepted format) → its settled windows, into the cache. */
export type LiveTranscribePort = (
  audioPath: string,
  language: VisitLanguage,
  options: { signal?: AbortSignal; cache: WindowCache; orgId?: string },
) => Promise<{ decoded: number; settled: number }>;

export interface LiveDeps {
  db: Database;
  store: BlobStore;
  transcribeLive: LiveTranscribePort;
  logger?: Logger;
}

export type LiveOutcome = "decoded" | "not_recording" | "no_audio" | "failed" | "skipped";

/** The chunks 0..n that have all arrived, in order: what a recording so far is. */
export function contiguousPrefix(chunks: readonly StoredChunk[]): StoredChunk[] {
  const sorted = [...chunks].sort((a, b) => a.seq - b.seq);
  const prefix: StoredChunk[] = [];
  for (const chunk of sorted) {
    if (chunk.seq !== prefix.length) break;
    prefix.push(chunk);
  }
  return prefix;
}

/**
 * The `transcribe-live` job (issue 5 "Transcribe while recording"): while a visit is recording,
 * joins the chunks received so far and decodes its settled windows into the visit's window cache;
 * the `transcribe-visit` job after Stop takes them from there. Best effort by design: any failure
 * is logged and dropped (the job after Stop decodes what is missing, and reports real errors).
 */
export async function handleTranscribeLive(job: TranscribeJob, deps: LiveDeps): Promise<LiveOutcome> {
  const parsed = TranscribeVisitPayloadSchema.safeParse(job.data);
  if (!parsed.success) return "skipped";
  const { orgId, visitId } = parsed.data;
  const visit = await deps.db.kysely
    .selectFrom("visits")
    .select(["status", "language"])
    .where("org_id", "=", orgId)
    .where("id", "=", visitId)
    .executeTakeFirst();
  if (visit?.status !== "recording") return "not_recording";
  const chunks = await deps.db.kysely
    .selectFrom("visit_audio_chunks")
    .select(["seq", "sha256", "bytes", "storage_key"])
    .where("org_id", "=", orgId)
    .where("visit_id", "=", visitId)
    .orderBy("seq")
    .execute();
  const prefix = contiguousPrefix(chunks);
  if (prefix.length === 0) return "no_audio";
  try {
    const audio = await assembleChunks(deps.store, prefix);
    try {
      const { decoded, settled } = await deps.transcribeLive(audio.path, visit.language, {
        signal: job.signal,
        cache: visitWindowCache(deps.db, orgId, visitId),
        orgId,
      });
      deps.logger?.debug({ visitId, chunks: prefix.length, decoded, settled }, "live transcription pass");
      return "decoded";
    } finally {
      await audio.discard();
    }
  } catch (err) {
    deps.logger?.warn({ err, visitId }, "live transcription pass failed (the job after Stop decodes the rest)");
    return "failed";
  }
}

/**
 * Asks for a live pass after a chunk was stored. A pass already waiting absorbs this one; the
 * delay lets ~10 s of chunks arrive first. Never fails the upload that called it.
 */
export async function enqueueTranscribeLive(db: Database, payload: { orgId: string; visitId: string }, logger?: Logger) {
  const boss = runningBoss(db);
  if (!boss) return;
  try {
    await boss.send(TRANSCRIBE_LIVE_QUEUE, payload, {
      singletonKey: payload.visitId,
      startAfter: TRANSCRIBE_LIVE_DELAY_SECONDS,
    });
  } catch (err) {
    logger?.warn({ err, visitId: payload.visitId }, "live transcription not queued");
  }
}
