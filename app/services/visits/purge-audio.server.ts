import { sql } from "kysely";
import type { Database } from "#app/db/database.server.ts";
import type { OrgAuditAction } from "#app/services/orgs/audit.server.ts";
import type { BlobStore } from "#app/services/storage/blob-store.ts";
import { visitPrefix } from "#app/services/storage/keys.ts";
import type { Logger } from "#app/utils/logger.server.ts";
import { AUDIO_RETENTION_DEFAULT_DAYS, AUDIO_RETENTION_MAX_DAYS } from "./retention.ts";
import { recordSystemAudit } from "./system-audit.server.ts";

const AUDIO_PURGED: OrgAuditAction = "visit.audio_purged";

const BATCH = 200;

export interface PurgeOptions {
  db: Database;
  store: BlobStore;
  logger?: Logger;
  /** The purge's clock (tests move it forward instead of waiting days). */
  now?: Date;
  /** Only these organisations (a test on a shared database, an operator's targeted run); default all. */
  orgIds?: readonly string[];
}

/**
 * Deletes the audio of every transcribed visit whose organisation's retention has run out
 * (issue 5 "Storage"), oldest first. The clock starts at visits.transcribed_at: the time the
 * latest engine transcript (or the first imported one) was written, i.e. when the visit reached
 * `transcribed`. The transcript, the visit and its chunk rows stay; each purged visit gets
 * `audio_purged_at` and an audit entry by the system. Returns how many visits were purged.
 *
 * Blobs go before the row is marked: a crash in between leaves a visit the next run finds again
 * (deleting is idempotent), never a visit marked purged whose bytes are still stored.
 */
export async function purgeExpiredAudio(options: PurgeOptions): Promise<number> {
  const { db, store, logger } = options;
  const now = options.now ?? new Date();
  // Settings are jsonb written by the API (validated), but a hand-edited value must not break the purge.
  const days = sql<number>`case
    when jsonb_typeof(o.settings->'audio_retention_days') = 'number'
      and (o.settings->>'audio_retention_days')::numeric between 0 and ${AUDIO_RETENTION_MAX_DAYS}
    then floor((o.settings->>'audio_retention_days')::numeric)::int
    else ${AUDIO_RETENTION_DEFAULT_DAYS} end`;
  let purged = 0;
  for (;;) {
    const due = await sql<{ org_id: string; id: string; transcribed_at: Date; days: number }>`
      select v.org_id, v.id, v.transcribed_at, ${days} as days
      from public.visits v join public.organizations o on o.id = v.org_id
      where v.status = 'transcribed' and v.audio_purged_at is null and v.transcribed_at is not null
        and v.transcribed_at <= ${now}::timestamptz - make_interval(days => ${days})
        ${options.orgIds ? sql`and v.org_id in (${sql.join(options.orgIds.length ? options.orgIds : [null])})` : sql``}
      order by v.transcribed_at
      limit ${BATCH}`.execute(db.kysely);
    for (const visit of due.rows) {
      await store.deletePrefix(visitPrefix(visit.org_id, visit.id));
      const marked = await db.kysely.transaction().execute(async (trx) => {
        // Re-checked under the row lock: a visit re-transcribed or deleted meanwhile is left alone.
        const { rows } = await sql<{ id: string }>`
          update public.visits set audio_purged_at = ${now}::timestamptz, audio_key = null
          where org_id = ${visit.org_id} and id = ${visit.id}
            and status = 'transcribed' and audio_purged_at is null
          returning id`.execute(trx);
        if (rows.length === 0) return false;
        await recordSystemAudit(trx, {
          orgId: visit.org_id,
          action: AUDIO_PURGED,
          entity: "visit",
          entityId: visit.id,
          details: { retention_days: visit.days, transcribed_at: new Date(visit.transcribed_at).toISOString() },
        });
        return true;
      });
      if (marked) purged += 1;
    }
    if (due.rows.length < BATCH) break;
  }
  if (purged > 0) logger?.info({ purged }, "expired visit audio purged");
  return purged;
}
