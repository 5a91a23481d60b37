import { BACKOFF_BASE_MS, BACKOFF_JITTER, BACKOFF_MAX_MS } from "./constants.ts";

/**
 * Delay before retry number `attempt` (1 = first retry): base × 2^(attempt−1), capped, then spread by
 * ±25 % with `random` ∈ [0, 1) and capped again. random = 0.5 gives the exact doubling (tests use it).
 */
export function backoffDelay(attempt: number, random: number, base = BACKOFF_BASE_MS, max = BACKOFF_MAX_MS): number {
  const raw = Math.min(max, base * 2 ** Math.max(0, attempt - 1));
  return Math.round(Math.min(max, raw * (1 - BACKOFF_JITTER + 2 * BACKOFF_JITTER * random)));
}
