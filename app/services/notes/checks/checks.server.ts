import { createHash } from "node:crypto";
import { sql } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { NoteCheckKind, NoteCheckStatus } from "#app/db/schema.ts";
import { latestTranscription } from "#app/services/visits/transcripts.server.ts";
import type { NoteRow } from "../note-rows.server.ts";
import { sectionsOf, templateOf } from "../note-rows.server.ts";
import { findOmissions } from "../omissions.ts";
import { transcriptPieces } from "../transcript-pieces.ts";
import { type CheckDraft, computeChecks } from "./compute.ts";

/** One check as GET /api/notes/:id shows it (docs/api.md "Checks"). */
export interface NoteCheck {
  id: string;
  kind: NoteCheckKind;
  code: string;
  section: string | null;
  sentence: string | null;
  text: string;
  status: NoteCheckStatus;
  /** Whether an open check stops the signature (the organisation may make some kinds advisory). */
  gating: boolean;
  reason: string | null;
  resolved_by: string | null;
  resolved_by_name: string | null;
  resolved_at: string | null;
}

/** The same check on every recomputation: what it is about, not when it was found. */
export function checkKey(c: CheckDraft): string {
  return createHash("sha256")
    .update([c.kind, c.code, c.section ?? "", c.sentence ?? "", c.text].join("\u0000"))
    .digest("hex")
    .slice(0, 32);
}

/**
 * Stores `drafts` as the note's checks: new ones open; existing ones keep their status (an
 * acknowledgement survives); an open check no longer found is resolved — its sentence was edited
 * (by `actorId`, or by nobody when a generation replaced it); a resolved one found again reopens.
 */
export async function storeChecks(
  trx: ActorTransaction,
  note: { org_id: string; id: string },
  drafts: readonly CheckDraft[],
  actorId: string | null,
): Promise<void> {
  const existing = await trx
    .selectFrom("note_checks")
    .select(["id", "key", "status"])
    .where("org_id", "=", note.org_id)
    .where("note_id", "=", note.id)
    .execute();
  const byKey = new Map(existing.map((r) => [r.key, r]));
  const wanted = new Map<string, CheckDraft>();
  for (const d of drafts) wanted.set(checkKey(d), d);
  const fresh = [...wanted].filter(([key]) => !byKey.has(key));
  if (fresh.length)
    await trx
      .insertInto("note_checks")
      .values(
        fresh.map(([key, d]) => ({
          org_id: note.org_id,
          note_id: note.id,
          key,
          kind: d.kind,
          code: d.code.slice(0, 40),
          section: d.section,
          sentence: d.sentence?.slice(0, 4000) ?? null,
          text: d.text.slice(0, 4000),
        })),
      )
      .execute();
  const gone = existing.filter((r) => r.status === "open" && !wanted.has(r.key)).map((r) => r.id);
  if (gone.length)
    await trx
      .updateTable("note_checks")
      .set({ status: "resolved", resolved_by: actorId, resolved_at: new Date() })
      .where("org_id", "=", note.org_id)
      .where("id", "in", gone)
      .execute();
  const back = existing.filter((r) => r.status === "resolved" && wanted.has(r.key)).map((r) => r.id);
  if (back.length)
    await trx
      .updateTable("note_checks")
      .set({ status: "open", resolved_by: null, resolved_at: null, reason: null })
      .where("org_id", "=", note.org_id)
      .where("id", "in", back)
      .execute();
}

/** Recomputes the checks of `note` as it now reads, against the visit's newest transcript. */
export async function recomputeChecks(trx: ActorTransaction, note: NoteRow, actorId: string | null): Promise<void> {
  const transcription = await latestTranscription(trx, note.org_id, note.visit_id);
  const transcript = transcription ? transcriptPieces(transcription) : [];
  const sections = sectionsOf(note.content);
  const drafts = computeChecks({
    template: templateOf(note.template),
    sections,
    language: note.language,
    transcript,
    omissions: findOmissions(transcript, sections, note.language),
    quality: transcription?.quality ?? null,
  });
  await storeChecks(trx, note, drafts, actorId);
}

/** Kinds an owner may make advisory (organizations.settings.advisory_checks); contradictions and unsupported always gate. */
export const ADVISORY_CHECK_KINDS = ["low_confidence", "omission"] as const satisfies readonly NoteCheckKind[];

export async function advisoryKinds(trx: ActorTransaction, orgId: string): Promise<NoteCheckKind[]> {
  const row = await trx.selectFrom("organizations").select("settings").where("id", "=", orgId).executeTakeFirst();
  const value = (row?.settings as { advisory_checks?: unknown } | undefined)?.advisory_checks;
  if (!Array.isArray(value)) return [];
  return ADVISORY_CHECK_KINDS.filter((k) => value.includes(k));
}

export async function loadChecks(trx: ActorTransaction, orgId: string, noteId: string): Promise<NoteCheck[]> {
  const rows = await trx
    .selectFrom("note_checks")
    .selectAll()
    .where("org_id", "=", orgId)
    .where("note_id", "=", noteId)
    .orderBy("created_at", "asc")
    .orderBy("id", "asc")
    .execute();
  const advisory = await advisoryKinds(trx, orgId);
  const names = new Map<string, string | null>();
  if (rows.some((r) => r.resolved_by)) {
    const { rows: directory } = await sql<{ user_id: string; email: string | null; full_name: string | null }>`
      select user_id, email, full_name from public.org_member_directory(${orgId}::uuid)`.execute(trx);
    for (const d of directory) names.set(d.user_id, d.full_name || d.email);
  }
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    code: r.code,
    section: r.section,
    sentence: r.sentence,
    text: r.text,
    status: r.status,
    gating: !advisory.includes(r.kind),
    reason: r.reason,
    resolved_by: r.resolved_by,
    resolved_by_name: r.resolved_by ? (names.get(r.resolved_by) ?? null) : null,
    resolved_at: r.resolved_at?.toISOString() ?? null,
  }));
}

/** The checks that stop a signature: open and of a kind the organisation gates on. */
export function blockingChecks(checks: readonly NoteCheck[]): NoteCheck[] {
  return checks.filter((c) => c.status === "open" && c.gating);
}
