import autocannon from "autocannon";
import { percentile } from "../web/load.ts";
import { nextClientIp } from "./accounts.ts";

// bench/web/autocannon.d.ts declares only what the web benchmark uses; the auth benchmark also
// rewrites each request (autocannon 9's `requests` option), typed here.
type RawRequest = { method?: string; path?: string; headers?: Record<string, string>; body?: string };
type RequestSpec = RawRequest & {
  /** Rewrites the request just before it is sent; `context` belongs to the connection. */
  setupRequest?: (request: RawRequest, context: Record<string, unknown>) => RawRequest;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
};
type CannonOptions = Parameters<typeof autocannon>[0];

export type Scenario = {
  name: string;
  /** Path and query, e.g. /auth/v1/token?grant_type=password */
  path: string;
  anonKey: string;
  /** The JSON body of the next request; `context` is the connection's, for `onResponse`. */
  nextBody: (context: Record<string, unknown>) => unknown;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
};

export type ScenarioResult = {
  name: string;
  durationSec: number;
  connections: number;
  responses: number;
  statusCodes: Record<string, number>;
  /** Every response per second, and the 2xx ones alone. */
  requestsPerSec: number;
  okPerSec: number;
  /** Latency of the 2xx responses (429s answer early and would flatter the numbers). */
  okLatencyMs: { p50: number; p95: number; p99: number; max: number };
  allLatencyMs: { p50: number; p95: number; p99: number };
  errors: number;
  timeouts: number;
};

/** Drives `scenario` with `connections` concurrent clients for `duration` seconds. */
export async function runScenario(
  baseUrl: string,
  scenario: Scenario,
  options: { duration?: number; amount?: number; connections: number },
): Promise<ScenarioResult> {
  const all: number[] = [];
  const ok: number[] = [];
  const requests: RequestSpec[] = [
    {
      method: "POST",
      path: scenario.path,
      setupRequest: (request, context) => ({
        ...request,
        headers: {
          ...request.headers,
          apikey: scenario.anonKey,
          authorization: `Bearer ${scenario.anonKey}`,
          "content-type": "application/json",
          // A fresh client address per request keeps the per-IP limits out of the measurement.
          "x-forwarded-for": nextClientIp(),
        },
        body: JSON.stringify(scenario.nextBody(context)),
      }),
      onResponse: scenario.onResponse,
    },
  ];
  const cannonOptions: CannonOptions & { requests: RequestSpec[] } = {
    url: baseUrl,
    connections: options.connections,
    // autocannon rejects an explicit undefined: pass only the one that is set.
    ...(options.amount === undefined ? { duration: options.duration } : { amount: options.amount }),
    timeout: 30,
    requests,
  };
  const instance = autocannon(cannonOptions);
  instance.on("response", (_client, statusCode, _bytes, responseTime) => {
    all.push(responseTime);
    if (statusCode >= 200 && statusCode < 300) ok.push(responseTime);
  });
  const result = await instance;
  all.sort((a, b) => a - b);
  ok.sort((a, b) => a - b);
  return {
    name: scenario.name,
    durationSec: result.duration,
    connections: options.connections,
    responses: all.length,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count])),
    requestsPerSec: all.length / result.duration,
    okPerSec: ok.length / result.duration,
    okLatencyMs: { p50: percentile(ok, 50), p95: percentile(ok, 95), p99: percentile(ok, 99), max: ok.at(-1) ?? Number.NaN },
    allLatencyMs: { p50: percentile(all, 50), p95: percentile(all, 95), p99: percentile(all, 99) },
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

export function resultTable(results: readonly ScenarioResult[]): string {
  const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "–");
  const rows = [
    ["scenario", "2xx/s", "all/s", "p50 ms", "p95 ms", "p99 ms", "max ms", "2xx", "429", "other", "errors"],
    ...results.map((r) => {
      const count = (pred: (code: number) => boolean) =>
        Object.entries(r.statusCodes)
          .filter(([code]) => pred(Number(code)))
          .reduce((sum, [, n]) => sum + n, 0);
      return [
        r.name,
        r.okPerSec.toFixed(1),
        r.requestsPerSec.toFixed(1),
        ms(r.okLatencyMs.p50),
        ms(r.okLatencyMs.p95),
        ms(r.okLatencyMs.p99),
        ms(r.okLatencyMs.max),
        String(count((c) => c >= 200 && c < 300)),
        String(count((c) => c === 429)),
        String(count((c) => c >= 300 && c !== 429)),
        String(r.errors + r.timeouts),
      ];
    }),
  ];
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? "").length))) ?? [];
  return rows
    .map((row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  "))
    .join("\n");
}
