import { sql } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { TranscriptionSource, TranscriptionStatus, TranscriptSegmentRow, VisitLanguage } from "#app/db/schema.ts";
import { recordAudit } from "#app/services/orgs/audit.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { validConfidence } from "#app/services/speech/confidence.ts";
import { isSpeakerRole } from "#app/services/speech/diarise/speaker.ts";
import { checkVisitId, requireClinicalRole } from "./access.server.ts";
import { type TranscriptQuality, transcriptQuality } from "./transcript-quality.ts";
import { loadVisit } from "./visit-rows.server.ts";

/** The newest transcript version of a visit, as GET /api/visits/:id shows it. */
export interface TranscriptionView {
  version: number;
  status: TranscriptionStatus;
  source: TranscriptionSource;
  engine: string;
  model: string | null;
  language: VisitLanguage;
  text: string;
  segments: TranscriptSegmentRow[];
  /** Issue 27: how far the words can be trusted (transcript-quality.ts). */
  quality: TranscriptQuality;
  created_at: string;
}

/**
 * Only the fields the API promises (word confidences when they still fit the text), whatever an
 * engine stored beside them. `speaker` is always there (null: not known; issue 26).
 */
export function cleanSegments(segments: unknown): TranscriptSegmentRow[] {
  if (!Array.isArray(segments)) return [];
  return segments.flatMap((s) => {
    if (typeof s !== "object" || s === null) return [];
    const { start, end, text, confidence, speaker, speaker_edited } = s as Record<string, unknown>;
    if (typeof start !== "number" || typeof end !== "number" || typeof text !== "string") return [];
    const words = validConfidence(text, confidence);
    const row: TranscriptSegmentRow = { start, end, text, speaker: isSpeakerRole(speaker) ? speaker : null };
    if (words) row.confidence = words;
    if (speaker_edited === true && isSpeakerRole(speaker)) row.speaker_edited = true;
    return [row];
  });
}

export function latestTranscription(trx: ActorTransaction, orgId: string, visitId: string): Promise<TranscriptionView | null> {
  return newestTranscription(trx, orgId, visitId, { originalOnly: false });
}

/**
 * The newest version that is not an edit: what the engine heard (or what was imported), which
 * an edit never replaces — the transcript view's "view original".
 */
export function originalTranscription(trx: ActorTransaction, orgId: string, visitId: string): Promise<TranscriptionView | null> {
  return newestTranscription(trx, orgId, visitId, { originalOnly: true });
}

async function newestTranscription(
  trx: ActorTransaction,
  orgId: string,
  visitId: string,
  options: { originalOnly: boolean },
): Promise<TranscriptionView | null> {
  let query = trx
    .selectFrom("transcriptions")
    .select(["version", "status", "source", "engine", "model", "language", "text", "segments", "created_at"])
    .where("org_id", "=", orgId)
    .where("visit_id", "=", visitId);
  if (options.originalOnly) query = query.where("source", "<>", "edit");
  const row = await query.orderBy("version", "desc").limit(1).executeTakeFirst();
  if (!row) return null;
  const segments = cleanSegments(row.segments);
  const quality = transcriptQuality({ ...row, segments });
  return { ...row, segments, quality, created_at: row.created_at.toISOString() };
}

export interface NewTranscriptVersion {
  orgId: string;
  visitId: string;
  source: TranscriptionSource;
  engine: string;
  model?: string | null;
  language: VisitLanguage;
  text: string;
  segments: TranscriptSegmentRow[];
  audioSha256?: string | null;
  /** The re-run round an engine transcript belongs to (visits.transcription_round). */
  round?: number;
  createdBy: string | null;
}

/**
 * Appends a version (the next number). The caller holds the visit's row lock (loadVisit with
 * lock), so two writers of one visit never pick the same number. An engine transcript of audio
 * that already has one in the same round is not written again (the unique index says so):
 * returns null then.
 */
export async function insertTranscriptVersion(trx: ActorTransaction, v: NewTranscriptVersion): Promise<number | null> {
  const { rows } = await sql<{ next: number }>`
    select coalesce(max(version), 0)::int + 1 as next from public.transcriptions
    where org_id = ${v.orgId} and visit_id = ${v.visitId}`.execute(trx);
  const version = rows[0]?.next ?? 1;
  const inserted = await trx
    .insertInto("transcriptions")
    .values({
      org_id: v.orgId,
      visit_id: v.visitId,
      version,
      source: v.source,
      engine: v.engine,
      model: v.model ?? null,
      language: v.language,
      text: v.text,
      segments: JSON.stringify(cleanSegments(v.segments)),
      audio_sha256: v.audioSha256 ?? null,
      transcription_round: v.round ?? 1,
      created_by: v.createdBy,
    })
    .onConflict((oc) =>
      oc.columns(["visit_id", "audio_sha256", "transcription_round"]).where("source", "=", "engine").doNothing(),
    )
    .returning("version")
    .executeTakeFirst();
  return inserted?.version ?? null;
}

/**
 * POST /api/visits/:id/transcript { text }: a transcript from elsewhere becomes a new version
 * (engine "import"); earlier versions stay. A visit without a transcript of its own yet (draft or
 * failed) is transcribed from then on.
 */
export function importTranscript(
  args: OrgServiceArgs & { orgId: string; visitId: string; text: string },
): Promise<{ id: string; version: number }> {
  checkOrgId(args.orgId);
  checkVisitId(args.visitId);
  return asActor(args, args.orgId, async (trx) => {
    await requireClinicalRole(trx, args.orgId, args.actor.userId);
    const visit = await loadVisit(trx, args.orgId, args.visitId, { lock: true });
    const version = await insertTranscriptVersion(trx, {
      orgId: visit.org_id,
      visitId: visit.id,
      source: "import",
      engine: "import",
      language: visit.language,
      text: args.text,
      segments: [],
      createdBy: args.actor.userId,
    });
    if (version === null) throw new Error("an imported transcript cannot collide");
    if (visit.status === "draft" || visit.status === "failed") {
      await trx
        .updateTable("visits")
        .set({ status: "transcribed", transcribed_at: new Date(), failure_code: null, failure_reason: null })
        .where("org_id", "=", visit.org_id)
        .where("id", "=", visit.id)
        .execute();
    }
    await recordAudit(trx, {
      orgId: visit.org_id,
      actorId: args.actor.userId,
      action: "visit.transcript_imported",
      entity: "visit",
      entityId: visit.id,
      details: { version, characters: args.text.length },
      meta: args.meta,
    });
    return { id: visit.id, version };
  });
}
