import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { Database } from "#app/db/database.server.ts";
import { runCpu } from "#app/services/cpu/pool.server.ts";
import { isoDate } from "#app/services/patients/iso-date.ts";
import type { TranscriptQuality } from "#app/services/visits/transcript-quality.ts";
import { latestTranscription } from "#app/services/visits/transcripts.server.ts";
import type { Logger } from "#app/utils/logger.server.ts";
import { ageOn, dayInZone } from "#app/utils/zoned-time.ts";
import { applyChartFindings } from "../chart/apply-chart.ts";
import type { PerioFindings } from "../chart/perio-findings.ts";
import { visitPerioFindings } from "../chart/visit-perio-exam.server.ts";
import { storeChecks } from "../checks/checks.server.ts";
import { computeChecks } from "../checks/compute.ts";
import { draftFailures } from "../engines/errors.ts";
import type { NoteContext, NoteEngine, NoteSectionDraft, NoteTemplate, TranscriptPiece } from "../model.ts";
import { sectionsOf, templateOf } from "../note-rows.server.ts";
import { NOTE_LIMITS } from "../note-schemas.ts";
import { findOmissions } from "../omissions.ts";
import { transcriptPieces } from "../transcript-pieces.ts";
import { GenerateNotePayloadSchema } from "./queues.ts";

/** The engine the worker runs (app/services/notes/engines: extractive or OpenAI-compatible). */
export type NoteEnginePort = NoteEngine;

export interface GenerateNoteJob {
  id?: string;
  data: unknown;
  retryCount?: number;
  retryLimit?: number;
  signal?: AbortSignal;
}

export interface GenerateNoteDeps {
  db: Database;
  engine: NoteEnginePort;
  logger?: Logger;
  /** Least time between two progress writes to the note row (default 500 ms). */
  progressIntervalMs?: number;
}

export type GenerateNoteOutcome = "generated" | "missing" | "skipped" | "stale" | "failed";

/** The job acts for nobody signed in: owner connection, every statement filtered by the job's org and note. */
function asSystem<T>(db: Database, fn: (trx: ActorTransaction) => Promise<T>): Promise<T> {
  return db.kysely.transaction().execute(fn);
}

function lockNote(trx: ActorTransaction, orgId: string, noteId: string) {
  return trx.selectFrom("notes").selectAll().where("org_id", "=", orgId).where("id", "=", noteId).forUpdate().executeTakeFirst();
}

interface Start {
  generation: number;
  template: NoteTemplate;
  language: NoteTemplate["language"];
  pieces: TranscriptPiece[];
  pending: string[] | null;
  context: NoteContext;
  /** The visit's periodontal chart, when the template has a periodontal section and an exam exists. */
  chart: PerioFindings | null;
  /** Issue 27: how far the transcript can be trusted (a poor one makes the whole note a check). */
  quality: TranscriptQuality;
}

/**
 * The `generate-note` job (issue 6 "Generation"). Idempotent: it works only on a note still
 * `generating` and writes only the generation round it started for, into that same note row — a
 * retried or duplicated job overwrites the same draft, never a second note; a round superseded
 * meanwhile (a section regenerated again) writes nothing.
 */
export async function handleGenerateNote(job: GenerateNoteJob, deps: GenerateNoteDeps): Promise<GenerateNoteOutcome> {
  const parsed = GenerateNotePayloadSchema.safeParse(job.data);
  if (!parsed.success) {
    deps.logger?.error({ jobId: job.id }, "generate-note job with an invalid payload dropped");
    return "skipped";
  }
  const { orgId, noteId } = parsed.data;

  const start = await asSystem(deps.db, async (trx): Promise<Start | "missing" | "skipped" | "failed"> => {
    const note = await lockNote(trx, orgId, noteId);
    if (!note) return "missing";
    if (note.status !== "generating") return "skipped";
    const transcript = await latestTranscription(trx, orgId, note.visit_id);
    if (!transcript) {
      await fail(trx, orgId, noteId, note.generation, "transcript_required", "the visit has no transcript");
      return "failed";
    }
    // Also for a section regenerated after the transcript was replaced by a longer one.
    if (transcript.text.length > NOTE_LIMITS.transcriptChars) {
      await fail(trx, orgId, noteId, note.generation, "transcript_too_long", `over ${NOTE_LIMITS.transcriptChars} characters`);
      return "failed";
    }
    const template = templateOf(note.template);
    return {
      generation: note.generation,
      template,
      language: note.language,
      pieces: transcriptPieces(transcript),
      pending: note.pending_sections,
      context: await noteContext(trx, { orgId, noteId, visitId: note.visit_id, patientId: note.patient_id, template }),
      chart: await visitPerioFindings(trx, { orgId, visitId: note.visit_id }, template, note.language),
      quality: transcript.quality,
    };
  });
  if (typeof start === "string") return start;

  const progress = progressWriter(deps, { orgId, noteId, generation: start.generation });
  let draft: Awaited<ReturnType<NoteEngine["generate"]>>;
  try {
    draft = await deps.engine.generate({
      template: start.template,
      transcript: start.pieces,
      language: start.language,
      context: start.context,
      onlySections: start.pending ?? undefined,
      signal: job.signal,
      onProgress: progress.report,
    });
  } catch (error) {
    await progress.settle();
    // Aborted by the job runner (the process is stopping, or the job outlived its expiry): pg-boss
    // has already put the job back for a retry, so the note stays `generating` for the next run.
    if (job.signal?.aborted) throw error;
    const retryable = (error as { retryable?: unknown }).retryable !== false;
    const lastAttempt = job.retryLimit !== undefined && (job.retryCount ?? 0) >= job.retryLimit;
    if (!retryable || lastAttempt) {
      await asSystem(deps.db, (trx) => fail(trx, orgId, noteId, start.generation, ...failureOf(error)));
      if (!retryable) return "failed";
    }
    throw error;
  }
  await progress.settle();
  // Issue 14: where the visit has a periodontal chart, its measurements replace what any engine
  // made of the dictation in the chart-fed sections (apply-chart.ts), evidence pointing at the chart.
  if (start.chart) draft = { ...draft, sections: applyChartFindings(start.template, draft.sections, start.chart) };
  const order = start.template.sections.map((s) => s.key);
  const contentOf = (stored: unknown) =>
    start.pending ? merge(sectionsOf(stored), draft.sections, start.pending, order) : draft.sections;
  // The omission scan reads the whole transcript (1.8 s for 887,000 characters, issue 25): done
  // before the row lock, on a worker thread; redone in the transaction only if the note moved meanwhile.
  const stored = await asSystem(deps.db, (trx) =>
    trx.selectFrom("notes").select("content").where("org_id", "=", orgId).where("id", "=", noteId).executeTakeFirst(),
  );
  const planned = contentOf(stored?.content);
  const plannedOmissions = await omissionsOf(start.pieces, planned, start.language);

  return asSystem(deps.db, async (trx) => {
    const note = await lockNote(trx, orgId, noteId);
    if (!note) return "missing";
    if (note.status !== "generating" || note.generation !== start.generation) return "stale";
    const sections = start.pending ? merge(sectionsOf(note.sections), draft.sections, start.pending, order) : draft.sections;
    const content = contentOf(note.content);
    const omissions =
      JSON.stringify(content) === JSON.stringify(planned)
        ? plannedOmissions
        : await omissionsOf(start.pieces, content, start.language);
    const failures = draftFailures(draft);
    await trx
      .updateTable("notes")
      .set({
        status: "draft",
        engine: draft.engine.slice(0, 100),
        model: draft.model?.slice(0, 200) ?? null,
        sections: JSON.stringify(sections),
        content: JSON.stringify(content),
        omissions: JSON.stringify(omissions),
        progress: null,
        pending_sections: null,
        generated_at: new Date(),
        // Sections the engine could not write: the draft stands, the editor offers to regenerate them.
        failure_code: failures[0]?.code ?? null,
        failure_reason: failures.length
          ? failures
              .map((f) => `${f.key}: ${f.reason}`)
              .join("; ")
              .slice(0, 1000)
          : null,
      })
      .where("org_id", "=", orgId)
      .where("id", "=", noteId)
      .execute();
    // Issue 27: the same checks for every engine's draft, computed on what it wrote.
    const checks = computeChecks({
      template: start.template,
      sections: content,
      language: start.language,
      transcript: start.pieces,
      omissions,
      quality: start.quality,
    });
    await storeChecks(trx, note, checks, null);
    return "generated";
  });
}

/** Below this transcript size the scan is a few milliseconds: inline, no thread hop. */
const INLINE_OMISSIONS_CHARS = 20_000;

function omissionsOf(pieces: TranscriptPiece[], sections: NoteSectionDraft[], language: NoteTemplate["language"]) {
  const size = pieces.reduce((sum, p) => sum + p.text.length, 0);
  if (size <= INLINE_OMISSIONS_CHARS) return Promise.resolve(findOmissions(pieces, sections, language));
  return runCpu("noteOmissions", { pieces, sections, language });
}

/** The dead-letter worker: a job that used up its retries leaves the note failed, never stuck generating. */
export async function handleDeadGenerateNote(job: GenerateNoteJob, deps: Pick<GenerateNoteDeps, "db">): Promise<void> {
  const parsed = GenerateNotePayloadSchema.safeParse(job.data);
  if (!parsed.success) return;
  const { orgId, noteId } = parsed.data;
  await asSystem(deps.db, (trx) =>
    fail(trx, orgId, noteId, null, "generation_failed", "note generation failed after every retry"),
  );
}

/** The sections of `fresh` named in `keys` replace (or join, in template order) those of `base`. */
function merge(
  base: readonly NoteSectionDraft[],
  fresh: readonly NoteSectionDraft[],
  keys: readonly string[],
  order: readonly string[],
): NoteSectionDraft[] {
  const byKey = new Map(base.map((s) => [s.key, s]));
  for (const s of fresh) if (keys.includes(s.key)) byKey.set(s.key, s);
  const rank = (key: string) => {
    const i = order.indexOf(key);
    return i < 0 ? order.length : i;
  };
  return [...byKey.values()].sort((a, b) => rank(a.key) - rank(b.key));
}

function failureOf(error: unknown): [string, string] {
  const rawCode = (error as { code?: unknown }).code;
  const code = typeof rawCode === "string" && /^[a-z][a-z0-9_]{0,99}$/.test(rawCode) ? rawCode : "generation_failed";
  const rawReason = (error as { reason?: unknown }).reason ?? (error instanceof Error ? error.message : String(error));
  return [code, String(rawReason).slice(0, 1000)];
}

/** Only while the note is still generating (in `generation`'s round when given). */
async function fail(
  trx: ActorTransaction,
  orgId: string,
  noteId: string,
  generation: number | null,
  code: string,
  reason: string,
): Promise<void> {
  let query = trx
    .updateTable("notes")
    .set({ status: "failed", failure_code: code, failure_reason: reason, progress: null, pending_sections: null })
    .where("org_id", "=", orgId)
    .where("id", "=", noteId)
    .where("status", "=", "generating");
  if (generation !== null) query = query.where("generation", "=", generation);
  await query.execute();
}

/**
 * What the engine may know beyond the transcript: the visit's title, the patient's sex and age
 * (never the name: a remote engine does not need it), and the persistent sections of the
 * patient's last signed note, by key, as signed or last amended.
 */
async function noteContext(
  trx: ActorTransaction,
  ids: { orgId: string; noteId: string; visitId: string; patientId: string; template: NoteTemplate },
): Promise<NoteContext> {
  const visit = await trx
    .selectFrom("visits as v")
    .innerJoin("patients as p", (j) => j.onRef("p.org_id", "=", "v.org_id").onRef("p.id", "=", "v.patient_id"))
    .innerJoin("organizations as o", "o.id", "v.org_id")
    .select(["v.title", "v.created_at", "p.sex", "p.date_of_birth", "o.timezone"])
    .where("v.org_id", "=", ids.orgId)
    .where("v.id", "=", ids.visitId)
    .executeTakeFirst();
  const context: NoteContext = {};
  if (visit?.title) context.visitTitle = visit.title;
  if (visit) {
    const patient: NonNullable<NoteContext["patient"]> = {};
    if (visit.sex) patient.sex = visit.sex;
    // The age on the visit's day where the practice is (a visit at 23:30 local is not tomorrow's),
    // from the date of birth as the calendar day it is (never moved by the server's zone).
    const birth = isoDate(visit.date_of_birth);
    if (birth) patient.ageYears = ageOn(birth, dayInZone(visit.created_at, visit.timezone));
    if (Object.keys(patient).length) context.patient = patient;
  }
  const persistent = ids.template.sections.filter((s) => s.persistent).map((s) => s.key);
  if (!persistent.length) return context;
  const last = await trx
    .selectFrom("notes")
    .select(["content"])
    .where("org_id", "=", ids.orgId)
    .where("patient_id", "=", ids.patientId)
    .where("id", "<>", ids.noteId)
    .where("signed_at", "is not", null)
    .orderBy("signed_at", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!last) return context;
  const previous: Record<string, string> = {};
  for (const s of sectionsOf(last.content)) if (persistent.includes(s.key) && s.text.trim()) previous[s.key] = s.text;
  if (Object.keys(previous).length) context.previous = previous;
  return context;
}

/** The engine's progress on the note row, where every instance's events stream reads it (throttled, in order). */
function progressWriter(
  deps: Pick<GenerateNoteDeps, "db" | "logger" | "progressIntervalMs">,
  target: { orgId: string; noteId: string; generation: number },
): { report: (done: number) => void; settle: () => Promise<void> } {
  const interval = deps.progressIntervalMs ?? 500;
  let lastWrite = Number.NEGATIVE_INFINITY;
  let queue: Promise<void> = Promise.resolve();
  return {
    report(done) {
      if (!Number.isFinite(done)) return;
      const now = Date.now();
      if (now - lastWrite < interval) return;
      lastWrite = now;
      const fraction = Math.round(Math.min(1, Math.max(0, done)) * 1000) / 1000;
      // Progress is a courtesy to the page: a failed write must not fail the generation.
      queue = queue
        .then(async () => {
          await deps.db.kysely
            .updateTable("notes")
            .set({ progress: fraction })
            .where("org_id", "=", target.orgId)
            .where("id", "=", target.noteId)
            .where("status", "=", "generating")
            .where("generation", "=", target.generation)
            .execute();
        })
        .catch((err: unknown) => deps.logger?.warn({ err, noteId: target.noteId }, "note progress not stored"));
    },
    settle: () => queue,
  };
}
