import { sql } from "kysely";
import type { AuthRuntime } from "./auth-runtime.server.ts";
import { errors } from "./errors.server.ts";

export interface RateLimitRule {
  /** e.g. "token:ip" — the bucket family. */
  name: string;
  limit: number;
  windowSeconds: number;
}

/**
 * Fixed-window counters in the database, so limits hold across restarts and instances.
 * Throws GoTrue's 429 over_request_rate_limit when `key` has used up its window.
 */
export async function consumeRateLimit(auth: AuthRuntime, rule: RateLimitRule, key: string): Promise<void> {
  const windowMs = rule.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(Date.now() / windowMs) * windowMs);
  const bucket = `${rule.name}:${key.toLowerCase()}`;
  const { rows } = await sql<{ hits: number }>`
    insert into auth.rate_limits (bucket, window_start, hits) values (${bucket}, ${windowStart}, 1)
    on conflict (bucket, window_start) do update set hits = auth.rate_limits.hits + 1
    returning hits`.execute(auth.db.kysely);
  if ((rows[0]?.hits ?? 0) > rule.limit) throw errors.rateLimited();
}

/** Old windows are useless; dropping them keeps the table small. */
export async function pruneRateLimits(auth: AuthRuntime, olderThanSeconds = 24 * 3600): Promise<void> {
  await sql`delete from auth.rate_limits where window_start < now() - make_interval(secs => ${olderThanSeconds})`.execute(
    auth.db.kysely,
  );
}
