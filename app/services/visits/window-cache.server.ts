import { z } from "zod";
import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { Database } from "#app/db/database.server.ts";
import type { CachedWindow, WindowCache } from "#app/services/speech/window-cache.ts";

const SegmentSchema = z.object({
  start: z.number(),
  end: z.number(),
  text: z.string(),
  words: z
    .array(z.object({ start: z.number(), end: z.number(), word: z.string(), confidence: z.number().optional() }))
    .optional(),
});
const CachedWindowSchema = z.object({
  segments: z.array(SegmentSchema),
  engine: z.string(),
  model: z.string().optional(),
  language: z.string(),
  carryOut: z.record(z.string(), z.unknown()),
});

/**
 * The windows of one visit decoded while it was recording (0010_transcription_window_cache.sql),
 * for the transcription jobs: they act for nobody signed in, so every statement is filtered by
 * the job's organisation and visit. A row that does not read back as a window is a miss.
 */
export function visitWindowCache(db: Database, orgId: string, visitId: string): WindowCache {
  return {
    async get(key) {
      const row = await db.kysely
        .selectFrom("transcription_window_cache")
        .select("result")
        .where("org_id", "=", orgId)
        .where("visit_id", "=", visitId)
        .where("cache_key", "=", key)
        .executeTakeFirst();
      const parsed = CachedWindowSchema.safeParse(row?.result);
      return parsed.success ? (parsed.data as CachedWindow) : null;
    },
    async put(key, value) {
      await db.kysely
        .insertInto("transcription_window_cache")
        .values({
          org_id: orgId,
          visit_id: visitId,
          cache_key: key,
          result: JSON.stringify(value),
        })
        .onConflict((oc) => oc.columns(["visit_id", "cache_key"]).doNothing())
        .execute();
    },
  };
}

/** Once the visit's transcript is written its windows are of no more use. */
export async function clearWindowCache(trx: ActorTransaction, orgId: string, visitId: string): Promise<void> {
  await trx.deleteFrom("transcription_window_cache").where("org_id", "=", orgId).where("visit_id", "=", visitId).execute();
}
