import fs from "node:fs";
import fsp from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { Database } from "#app/db/database.server.ts";
import type { VisitLanguage, VisitStatus } from "#app/db/schema.ts";
import { autoDraftNote } from "#app/services/notes/auto-draft.server.ts";
import type { SpeakerRole } from "#app/services/speech/diarise/speaker.ts";
import type { WindowCache } from "#app/services/speech/window-cache.ts";
import { BlobNotFoundError, type BlobStore } from "#app/services/storage/blob-store.ts";
import { recordSystemAudit } from "#app/services/visits/system-audit.server.ts";
import { keepEditedSpeakers } from "#app/services/visits/transcript-speakers.server.ts";
import { insertTranscriptVersion, latestTranscription } from "#app/services/visits/transcripts.server.ts";
import { clearWindowCache, visitWindowCache } from "#app/services/visits/window-cache.server.ts";
import type { Logger } from "#app/utils/logger.server.ts";
import { TranscribeVisitPayloadSchema } from "./queues.ts";

/** What a speech engine gives back (app/services/speech's TranscriptResult satisfies it). */
export interface TranscriptionResult {
  text: string;
  segments: readonly { start: number; end: number; text: string; confidence?: number[]; speaker?: SpeakerRole | null }[];
  engine: string;
  model?: string | null;
}

/**
 * The port the speech engine plugs into: a file on local disk in any format the upload accepted,
 * and the visit's language. Errors with `retryable: false` (bad audio, no engine for the
 * language) fail the visit at once; anything else is retried with back-off.
 */
export type TranscribePort = (
  audioPath: string,
  language: VisitLanguage,
  options: {
    signal?: AbortSignal;
    /** Fraction done (0–1), as often as the engine likes: the job throttles what it stores. */
    onProgress?: (done: number) => void;
    /** Windows decoded while the visit was recording (transcribe-live.server.ts). */
    cache?: WindowCache;
    /** The visit's organisation: its own vocabulary is used (ADR 0032), nobody else's. */
    orgId?: string;
  },
) => Promise<TranscriptionResult>;

export interface TranscribeJob {
  id?: string;
  data: unknown;
  retryCount?: number;
  retryLimit?: number;
  signal?: AbortSignal;
}

export interface TranscribeDeps {
  db: Database;
  store: BlobStore;
  transcribe: TranscribePort;
  logger?: Logger;
  /** Least time between two progress writes to the visit row (default 1 s). */
  progressIntervalMs?: number;
}

export type TranscribeOutcome = "transcribed" | "already_transcribed" | "missing" | "no_audio" | "skipped" | "stale" | "failed";

/** A job may only (re)start a visit whose audio is complete. */
const RUNNABLE: readonly VisitStatus[] = ["uploaded", "transcribing", "failed", "transcribed"];

/** The job acts for nobody signed in: owner connection, every statement filtered by the job's org and visit. */
function asSystem<T>(db: Database, fn: (trx: ActorTransaction) => Promise<T>): Promise<T> {
  return db.kysely.transaction().execute(fn);
}

function lockVisit(trx: ActorTransaction, orgId: string, visitId: string) {
  return trx
    .selectFrom("visits")
    .selectAll()
    .where("org_id", "=", orgId)
    .where("id", "=", visitId)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * The `transcribe-visit` job (issue 5 "Pipeline"). Idempotent: the transcript is written only if
 * no engine transcript exists for the visit's audio SHA-256 in its current transcription round
 * (and a unique index backs that up), so a retried, duplicated or concurrent job never adds a
 * second one; a re-run request (rerun.server.ts) bumps the round to ask for a new version.
 */
export async function handleTranscribeVisit(job: TranscribeJob, deps: TranscribeDeps): Promise<TranscribeOutcome> {
  const parsed = TranscribeVisitPayloadSchema.safeParse(job.data);
  if (!parsed.success) {
    deps.logger?.error({ jobId: job.id }, "transcribe-visit job with an invalid payload dropped");
    return "skipped";
  }
  const { orgId, visitId } = parsed.data;

  const start = await asSystem(deps.db, async (trx) => {
    const visit = await lockVisit(trx, orgId, visitId);
    if (!visit) return { outcome: "missing" as const };
    if (!visit.audio_sha256 || !visit.audio_key) return { outcome: "no_audio" as const };
    if (!RUNNABLE.includes(visit.status)) return { outcome: "skipped" as const };
    const done = await trx
      .selectFrom("transcriptions")
      .select("version")
      .where("org_id", "=", orgId)
      .where("visit_id", "=", visitId)
      .where("source", "=", "engine")
      .where("audio_sha256", "=", visit.audio_sha256)
      .where("transcription_round", "=", visit.transcription_round)
      .executeTakeFirst();
    if (done) {
      if (visit.status !== "transcribed") {
        await setStatus(trx, orgId, visitId, { status: "transcribed", transcription_progress: null });
      }
      return { outcome: "already_transcribed" as const };
    }
    await setStatus(trx, orgId, visitId, {
      status: "transcribing",
      failure_code: null,
      failure_reason: null,
      transcription_progress: 0,
    });
    return {
      outcome: null,
      sha256: visit.audio_sha256,
      key: visit.audio_key,
      language: visit.language,
      round: visit.transcription_round,
    };
  });
  if (start.outcome !== null) {
    // A retry after the transcript committed but before the note was drafted finishes the job.
    if (start.outcome === "already_transcribed") await draftNote(deps, orgId, visitId);
    return start.outcome;
  }

  let result: TranscriptionResult;
  let audio: { path: string; release(): Promise<void> };
  try {
    audio = await localAudio(deps.store, start.key);
  } catch (error) {
    if (!(error instanceof BlobNotFoundError)) throw error;
    // Retrying cannot bring lost bytes back.
    await markFailed(deps.db, orgId, visitId, start.sha256, {
      code: "audio_missing",
      reason: "the visit's audio is not in storage",
    });
    return "failed";
  }
  const progress = progressWriter(deps, { orgId, visitId, round: start.round });
  try {
    result = await deps.transcribe(audio.path, start.language, {
      signal: job.signal,
      onProgress: progress.report,
      cache: visitWindowCache(deps.db, orgId, visitId),
      orgId,
    });
  } catch (error) {
    await progress.settle();
    // Aborted by the job runner (the process is stopping, or the job outlived its expiry): pg-boss
    // has already put the job back for a retry, so the visit is not failed; the next run resumes it.
    if (job.signal?.aborted) throw error;
    const retryable = (error as { retryable?: unknown }).retryable !== false;
    const lastAttempt = job.retryLimit !== undefined && (job.retryCount ?? 0) >= job.retryLimit;
    if (!retryable || lastAttempt) {
      await markFailed(deps.db, orgId, visitId, start.sha256, error);
      if (!retryable) return "failed";
    }
    throw error;
  } finally {
    await audio.release();
  }
  await progress.settle();

  const outcome = await asSystem(deps.db, async (trx): Promise<TranscribeOutcome> => {
    const visit = await lockVisit(trx, orgId, visitId);
    if (!visit) return "missing";
    // New audio arrived while this ran: its own job transcribes it.
    if (visit.audio_sha256 !== start.sha256) return "stale";
    // A re-run was asked for meanwhile: the next round's job writes the version it wants.
    if (visit.transcription_round !== start.round) return "stale";
    // A re-run keeps who-said-what a person corrected on the transcript it replaces (issue 26).
    const previous = await latestTranscription(trx, orgId, visitId);
    const segments = keepEditedSpeakers(
      result.segments.map((s) => ({
        start: s.start,
        end: s.end,
        text: s.text,
        speaker: s.speaker ?? null,
        ...(s.confidence ? { confidence: s.confidence } : {}),
      })),
      previous?.segments ?? [],
    );
    const version = await insertTranscriptVersion(trx, {
      orgId,
      visitId,
      source: "engine",
      engine: result.engine,
      model: result.model ?? null,
      language: visit.language,
      text: result.text,
      segments,
      audioSha256: start.sha256,
      round: start.round,
      createdBy: null,
    });
    await setStatus(trx, orgId, visitId, {
      status: "transcribed",
      failure_code: null,
      failure_reason: null,
      transcription_progress: null,
    });
    await clearWindowCache(trx, orgId, visitId);
    if (version === null) return "already_transcribed";
    await trx
      .updateTable("visits")
      .set({ transcribed_at: new Date() })
      .where("org_id", "=", orgId)
      .where("id", "=", visitId)
      .execute();
    await recordSystemAudit(trx, {
      orgId,
      action: "visit.transcribed",
      entity: "visit",
      entityId: visitId,
      details: { version, engine: result.engine, segments: result.segments.length, round: start.round },
    });
    return "transcribed";
  });
  if (outcome === "transcribed" || outcome === "already_transcribed") await draftNote(deps, orgId, visitId);
  return outcome;
}

/**
 * Issue 29: the note is drafted as soon as the transcript is ready (autoDraftNote decides whether).
 * A failure here never fails the transcription — the transcript is written, and the clinician can
 * still press Generate — so it is logged, not thrown.
 */
async function draftNote(deps: TranscribeDeps, orgId: string, visitId: string): Promise<void> {
  try {
    await autoDraftNote(deps.db, { orgId, visitId });
  } catch (error) {
    deps.logger?.error({ err: error, orgId, visitId }, "auto-draft of the visit's note failed");
  }
}

/**
 * The dead-letter worker: a job that used up its retries leaves the visit failed (with the reason
 * when the last attempt could not record it), never stuck in `transcribing`.
 */
export async function handleDeadTranscribeVisit(job: TranscribeJob, deps: Pick<TranscribeDeps, "db">): Promise<void> {
  const parsed = TranscribeVisitPayloadSchema.safeParse(job.data);
  if (!parsed.success) return;
  const { orgId, visitId } = parsed.data;
  await markFailed(deps.db, orgId, visitId, null, new Error("transcription failed after every retry"));
}

async function setStatus(
  trx: ActorTransaction,
  orgId: string,
  visitId: string,
  patch: {
    status: VisitStatus;
    failure_code?: string | null;
    failure_reason?: string | null;
    transcription_progress?: number | null;
  },
): Promise<void> {
  await trx.updateTable("visits").set(patch).where("org_id", "=", orgId).where("id", "=", visitId).execute();
}

/** Only while the visit is still being transcribed, from the audio that failed (any audio, from the dead-letter queue). */
async function markFailed(db: Database, orgId: string, visitId: string, sha256: string | null, error: unknown): Promise<void> {
  const rawCode = (error as { code?: unknown }).code;
  const code = typeof rawCode === "string" && /^[a-z][a-z0-9_]{0,99}$/.test(rawCode) ? rawCode : "transcription_failed";
  const rawReason = (error as { reason?: unknown }).reason ?? (error instanceof Error ? error.message : String(error));
  const reason = String(rawReason).slice(0, 1000);
  await asSystem(db, async (trx) => {
    const visit = await lockVisit(trx, orgId, visitId);
    if (visit?.status !== "transcribing") return;
    if (sha256 !== null && visit.audio_sha256 !== sha256) return;
    await setStatus(trx, orgId, visitId, {
      status: "failed",
      failure_code: code,
      failure_reason: reason,
      transcription_progress: null,
    });
    await recordSystemAudit(trx, {
      orgId,
      action: "visit.transcription_failed",
      entity: "visit",
      entityId: visitId,
      details: { code },
    });
  });
}

/**
 * Stores the engine's progress on the visit row, where every instance's events stream reads it:
 * at most one write per interval (engines may report per window, or far more often), in order,
 * and only while this round is still being transcribed. `settle` waits for the last write, so
 * none lands after the final status.
 */
function progressWriter(
  deps: Pick<TranscribeDeps, "db" | "logger" | "progressIntervalMs">,
  target: { orgId: string; visitId: string; round: number },
): { report: (done: number) => void; settle: () => Promise<void> } {
  const interval = deps.progressIntervalMs ?? 1000;
  let lastWrite = Number.NEGATIVE_INFINITY;
  let queue: Promise<void> = Promise.resolve();
  const write = async (fraction: number) => {
    await deps.db.kysely
      .updateTable("visits")
      .set({ transcription_progress: fraction })
      .where("org_id", "=", target.orgId)
      .where("id", "=", target.visitId)
      .where("status", "=", "transcribing")
      .where("transcription_round", "=", target.round)
      .execute();
  };
  return {
    report(done) {
      if (!Number.isFinite(done)) return;
      const now = Date.now();
      if (now - lastWrite < interval) return;
      lastWrite = now;
      const fraction = Math.round(Math.min(1, Math.max(0, done)) * 1000) / 1000;
      // Progress is a courtesy to the page: a failed write must not fail the transcription.
      queue = queue
        .then(() => write(fraction))
        .catch((err: unknown) => deps.logger?.warn({ err, visitId: target.visitId }, "progress not stored"));
    },
    settle: () => queue,
  };
}

/** The audio as a local file: the blob itself on local disk, else a scratch copy. */
async function localAudio(store: BlobStore, key: string): Promise<{ path: string; release(): Promise<void> }> {
  const direct = store.localPath(key);
  if (direct && fs.existsSync(direct)) return { path: direct, release: async () => {} };
  const copy = await store.scratchFile();
  await pipeline(await store.get(key), fs.createWriteStream(copy, { flags: "wx" }));
  return { path: copy, release: () => fsp.rm(copy, { force: true }) };
}
