import { sql } from "kysely";
import type { AuthRuntime } from "./auth-runtime.server.ts";
import { errors } from "./errors.server.ts";

export interface RateLimitRule {
  /** e.g. "token:ip" — the bucket family. */
  name: string;
  limit: number;
  windowSeconds: number;
}

/** One hit counted in a rule's current window, kept so that it can be given back. */
export interface RateLimitHit {
  bucket: string;
  windowStart: Date;
  /** Hits in the window, this one included. */
  hits: number;
  /** More hits than the rule allows. */
  exceeded: boolean;
}

/**
 * Fixed-window counters in the database, so limits hold across restarts and instances.
 * Throws GoTrue's 429 over_request_rate_limit when `key` has used up its window.
 */
export async function consumeRateLimit(auth: AuthRuntime, rule: RateLimitRule, key: string): Promise<void> {
  if ((await countRateLimitHit(auth, rule, key)).exceeded) throw errors.rateLimited();
}

/** Counts one hit for `key` in the rule's current window, atomically, without refusing anything. */
export async function countRateLimitHit(auth: AuthRuntime, rule: RateLimitRule, key: string): Promise<RateLimitHit> {
  const windowMs = rule.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(Date.now() / windowMs) * windowMs);
  const bucket = `${rule.name}:${key.toLowerCase()}`;
  const { rows } = await sql<{ hits: number }>`
    insert into auth.rate_limits (bucket, window_start, hits) values (${bucket}, ${windowStart}, 1)
    on conflict (bucket, window_start) do update set hits = auth.rate_limits.hits + 1
    returning hits`.execute(auth.db.kysely);
  const hits = rows[0]?.hits ?? 0;
  return { bucket, windowStart, hits, exceeded: hits > rule.limit };
}

/** Gives a hit back (e.g. an attempt that turned out not to be a failure). */
export async function refundRateLimitHit(auth: AuthRuntime, hit: RateLimitHit): Promise<void> {
  await sql`update auth.rate_limits set hits = greatest(hits - 1, 0)
            where bucket = ${hit.bucket} and window_start = ${hit.windowStart}`.execute(auth.db.kysely);
}

/** Old windows are useless; dropping them keeps the table small. */
export async function pruneRateLimits(auth: AuthRuntime, olderThanSeconds = 24 * 3600): Promise<void> {
  await sql`delete from auth.rate_limits where window_start < now() - make_interval(secs => ${olderThanSeconds})`.execute(
    auth.db.kysely,
  );
}
