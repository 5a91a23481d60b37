import autocannon from "autocannon";
import { BROWSER_HEADERS } from "./http.ts";

export type LoadOptions = {
  /** Seconds. */
  duration: number;
  connections: number;
  warmupRequests: number;
  /** Extra request headers, e.g. a cookie, which makes the server render instead of using its page cache. */
  headers?: Record<string, string>;
  /** Shown after the path in tables ("rendered", "page cache"). */
  label?: string;
};

export type LoadResult = {
  path: string;
  durationSec: number;
  connections: number;
  responses: number;
  requestsPerSec: number;
  latencyMs: { p50: number; p95: number; p99: number; mean: number; max: number };
  non2xx: number;
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
  /** Whole response on the wire (status line + headers + gzipped body), averaged. */
  bytesPerResponse: number;
  /** autocannon's own histogram, for cross-checking (it has no p95). */
  autocannonLatencyMs: { p50: number; p97_5: number; p99: number };
};

/** Warms the route up (JIT, caches, pooled connections), then measures it under constant load. */
export async function measureUrl(baseUrl: string, path: string, options: LoadOptions): Promise<LoadResult> {
  const url = baseUrl + path;
  const headers = { ...BROWSER_HEADERS, ...options.headers };
  await autocannon({ url, connections: options.connections, amount: options.warmupRequests, headers });

  // autocannon's histogram gives p97.5/p99 but no p95, so keep every response time and rank them ourselves.
  const times: number[] = [];
  let bytes = 0;
  const instance = autocannon({ url, connections: options.connections, duration: options.duration, headers });
  instance.on("response", (_client, _statusCode, resBytes, responseTime) => {
    times.push(responseTime);
    bytes += resBytes;
  });
  const result = await instance;

  times.sort((a, b) => a - b);
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]));
  return {
    path: options.label ? `${path} (${options.label})` : path,
    durationSec: result.duration,
    connections: options.connections,
    responses: times.length,
    requestsPerSec: result.requests.average,
    latencyMs: {
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      p99: percentile(times, 99),
      mean: times.length ? times.reduce((sum, t) => sum + t, 0) / times.length : Number.NaN,
      max: times.at(-1) ?? Number.NaN,
    },
    non2xx: result.non2xx,
    statusCodes,
    errors: result.errors,
    timeouts: result.timeouts,
    bytesPerResponse: times.length ? bytes / times.length : 0,
    autocannonLatencyMs: { p50: result.latency.p50, p97_5: result.latency.p97_5, p99: result.latency.p99 },
  };
}

/** Nearest-rank percentile of an ascending array: the smallest value with at least p% of samples at or below it. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}
