import type { Selectable } from "kysely";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { VisitStatus, VisitsTable } from "#app/db/schema.ts";
import { plainAudioType } from "./audio-format.ts";
import { visitErrors } from "./errors.server.ts";

export type VisitRow = Selectable<VisitsTable>;

/** Statuses in which a visit takes no more audio (issue 5: its recording is complete). */
export const CLOSED_STATUSES: readonly VisitStatus[] = ["uploaded", "transcribing", "transcribed"];

export function isClosed(status: VisitStatus): boolean {
  return CLOSED_STATUSES.includes(status);
}

/**
 * The visit, locked for the rest of the transaction when `lock` (so chunk acknowledgements,
 * finishing and transcript versions of one visit serialise). 404 when it is not this
 * organisation's.
 */
export async function loadVisit(
  trx: ActorTransaction,
  orgId: string,
  visitId: string,
  options: { lock?: boolean } = {},
): Promise<VisitRow> {
  let query = trx.selectFrom("visits").selectAll().where("org_id", "=", orgId).where("id", "=", visitId);
  if (options.lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw visitErrors.visitNotFound();
  return row;
}

/** int8 columns arrive as strings from pg. */
export function toNumber(value: string | number | null): number | null {
  return value === null ? null : Number(value);
}

/** The audio part of a visit as every API answer shows it. */
export interface VisitAudio {
  source: "chunks" | "file" | null;
  chunk_count: number;
  bytes: number;
  duration_ms: number | null;
  sha256: string | null;
  content_type: string | null;
  uploaded_at: string | null;
}

export function visitAudio(row: VisitRow): VisitAudio {
  return {
    source: row.audio_source,
    chunk_count: row.audio_chunk_count,
    bytes: toNumber(row.audio_bytes) ?? 0,
    duration_ms: toNumber(row.audio_duration_ms),
    sha256: row.audio_sha256,
    // A label stored before uploads refused lists and oddities is not repeated (audio-format.ts).
    content_type: plainAudioType(row.audio_content_type),
    uploaded_at: row.uploaded_at?.toISOString() ?? null,
  };
}
