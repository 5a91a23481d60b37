// Web performance benchmark: SSR throughput/latency of two pages and the JavaScript /login ships,
// checked against the budgets. It reports; a missed budget does not fail the run (exit 0), but a
// broken run does (exit 1): build or server failure, non-2xx responses, socket errors.
// Usage: node bench/web/run.ts [--no-build] [--duration N]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { measureAsset, measurePageJs } from "./bundle-size.ts";
import { getJson } from "./http.ts";
import { type LoadResult, measureUrl } from "./load.ts";
import { assetTable, type Budget, budgetTable, bytes, KIB, kib, loadTable, pageJsSummary } from "./report.ts";
import { buildApp, type RunningServer, startServer } from "./server.ts";

const PROJECT_DIR = path.resolve(import.meta.dirname, "../..");
const RESULTS_DIR = path.join(PROJECT_DIR, "bench/results");
const LOAD_URLS = ["/login", "/fr/product"];
const JS_PAGE = "/login";
const MESSAGES_PATH = "/_i18n/en/messages.json";
const CONNECTIONS = 10;
const WARMUP_REQUESTS = 50;
const JS_BUDGET_BYTES = 150_000; // 150 KB, decimal: compared in bytes
const P95_BUDGET_MS = 50;
// A visitor without cookies may get a copy of a public page rendered up to PAGE_CACHE_TTL_MS ago
// (server/page-cache.ts, ADR 0033); any cookie makes the server render. Both are measured, so the
// render cost stays in the table next to the figure a cold visitor sees.
const VISITORS: { label: string; headers: Record<string, string> }[] = [
  { label: "no cookie: page cache", headers: {} },
  { label: "cookie: rendered", headers: { cookie: "murmur_bench=1" } },
];

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { "no-build": { type: "boolean", default: false }, duration: { type: "string", default: "10" } },
  });
  const duration = Number(values.duration);
  if (!Number.isFinite(duration) || duration <= 0) throw new Error("--duration must be a positive number of seconds");

  if (!values["no-build"]) {
    console.log("Building the app (npx react-router build)…");
    await buildApp(PROJECT_DIR);
  }

  console.log("Starting the production server…");
  // startServer() also stops the server on SIGINT/SIGTERM and at process exit.
  const server = await startServer(PROJECT_DIR);
  try {
    return await bench(server, duration);
  } finally {
    await server.stop();
  }
}

async function bench(server: RunningServer, duration: number): Promise<number> {
  const startedAt = new Date();
  const build = await getJson<{ id: string; timestamp: string }>(`${server.baseUrl}/builds/latest.json`);
  const cpus = os.cpus();
  const machine = {
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    cpuCount: cpus.length,
    totalMemoryGiB: Math.round(os.totalmem() / KIB ** 3),
    loadAverage1m: os.loadavg()[0] ?? 0,
  };
  console.log(`\nNode ${machine.node} on ${machine.platform}`);
  console.log(`CPU: ${machine.cpuModel} × ${machine.cpuCount}, ${machine.totalMemoryGiB} GiB RAM`);
  console.log(`Load average (1 min) before the run: ${machine.loadAverage1m.toFixed(2)}`);
  // The server and autocannon share this machine; anything else running skews latency badly.
  if (machine.loadAverage1m > machine.cpuCount / 2) {
    console.log("WARNING: the machine is already busy; latency numbers will be pessimistic and noisy.");
  }
  console.log(`Build: ${build.id} (built ${build.timestamp})`);
  console.log(`Server: ${server.baseUrl}`);

  // Render latency: one request at a time, so the number is the server's render time plus loopback,
  // without the queueing that a saturated single-threaded server adds under load (reported below).
  const render: LoadResult[] = [];
  for (const url of LOAD_URLS) {
    for (const visitor of VISITORS) {
      console.log(`\nRender: ${url} (${visitor.label}) — ${duration} s × 1 connection…`);
      const result = await measureUrl(server.baseUrl, url, {
        duration,
        connections: 1,
        warmupRequests: WARMUP_REQUESTS,
        ...visitor,
      });
      render.push(result);
      console.log(loadTable([result]));
    }
  }

  const load: LoadResult[] = [];
  for (const url of LOAD_URLS) {
    for (const visitor of VISITORS) {
      console.log(
        `\nLoad: ${url} (${visitor.label}) — ${WARMUP_REQUESTS} warm-up requests, then ${duration} s × ${CONNECTIONS} connections…`,
      );
      const result = await measureUrl(server.baseUrl, url, {
        duration,
        connections: CONNECTIONS,
        warmupRequests: WARMUP_REQUESTS,
        ...visitor,
      });
      load.push(result);
      console.log(loadTable([result]));
    }
  }

  console.log(`\nJavaScript for ${JS_PAGE} (sizes in KiB, 1 KiB = 1024 bytes; biggest first):`);
  const js = await measurePageJs(server.baseUrl, JS_PAGE);
  console.log(assetTable(js.files));
  console.log(pageJsSummary(js));
  const messages = (await measureAsset(`${server.baseUrl}${MESSAGES_PATH}`, MESSAGES_PATH, "fetched")).size;
  console.log(
    `\nMessages ${MESSAGES_PATH} (JSON, not counted as JS): raw ${kib(messages.rawBytes)}, gzip -9 ${kib(messages.gzip9Bytes)}, served ${kib(messages.transferBytes)} (${messages.contentEncoding})`,
  );

  const budgets: Budget[] = [
    {
      name: `${JS_PAGE} JS, gzip -9`,
      measured: js.totals.gzip9Bytes,
      limit: JS_BUDGET_BYTES,
      unit: "bytes",
      pass: js.totals.gzip9Bytes <= JS_BUDGET_BYTES,
    },
    ...render.map(
      (r): Budget => ({
        name: `SSR p95 ${r.path} (1 connection)`,
        measured: r.latencyMs.p95,
        limit: P95_BUDGET_MS,
        unit: "ms",
        pass: r.latencyMs.p95 <= P95_BUDGET_MS,
      }),
    ),
    ...load.map(
      (r): Budget => ({
        name: `SSR p95 ${r.path} (${CONNECTIONS} connections)`,
        measured: r.latencyMs.p95,
        limit: P95_BUDGET_MS,
        unit: "ms",
        pass: r.latencyMs.p95 <= P95_BUDGET_MS,
      }),
    ),
  ];

  console.log("\n=== Summary ===");
  console.log("Render, 1 connection:");
  console.log(loadTable(render));
  console.log(`Under load, ${CONNECTIONS} connections:`);
  console.log(loadTable(load));
  console.log(
    `\n${JS_PAGE} JS: ${js.files.length} files, gzip -9 ${bytes(js.totals.gzip9Bytes)} (${kib(js.totals.gzip9Bytes)}), as served ${bytes(js.totals.transferBytes)} (${kib(js.totals.transferBytes)})`,
  );
  console.log(`${MESSAGES_PATH}: gzip -9 ${bytes(messages.gzip9Bytes)} (${kib(messages.gzip9Bytes)})`);
  console.log(`\nBudgets (JS budget 150 KB = ${bytes(JS_BUDGET_BYTES)}, compared in bytes):`);
  console.log(budgetTable(budgets));

  const broken = [...render, ...load].filter((r) => r.non2xx > 0 || r.errors > 0 || r.timeouts > 0);
  const report = {
    timestamp: startedAt.toISOString(),
    machine,
    build,
    settings: { durationSec: duration, connections: CONNECTIONS, warmupRequests: WARMUP_REQUESTS },
    render,
    load,
    javascript: js,
    messages,
    budgets,
    valid: broken.length === 0,
  };
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `web-${startedAt.toISOString().replace(/[:.]/g, "-")}.json`);
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nResults written to ${path.relative(PROJECT_DIR, file)}`);

  if (broken.length > 0) {
    for (const r of broken) {
      console.error(
        `ERROR: ${r.path} had ${r.non2xx} non-2xx responses ${JSON.stringify(r.statusCodes)}, ${r.errors} errors, ${r.timeouts} timeouts`,
      );
    }
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`\nERROR: ${error instanceof Error ? error.message : String(error)}`);
    // Plain Errors and bad arguments are expected failures with a clear message; anything else is a bug here.
    const expected =
      error instanceof Error &&
      (error.constructor === Error || String((error as { code?: unknown }).code).startsWith("ERR_PARSE_ARGS"));
    if (!expected && error instanceof Error) console.error(error.stack);
    process.exit(1);
  },
);
