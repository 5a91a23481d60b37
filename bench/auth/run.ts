// Auth benchmark: password sign-in and refresh-token rotation on the embedded /auth/v1, against
// the production server. It reports; only a broken run (no server, no successful response, socket
// errors) exits 1. Usage: node bench/auth/run.ts [--no-build] [--duration N] [--connections N] [--users N]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { CORE_LIMITS } from "#app/services/auth/limits.server.ts";
import { buildApp, type RunningServer, startServer } from "../web/server.ts";
import { BENCH_PASSWORD, createUsers, refresh, signIn } from "./accounts.ts";
import { type AuthKeys, keyWatcher } from "./keys.ts";
import { resultTable, runScenario, type ScenarioResult } from "./scenario.ts";

const PROJECT_DIR = path.resolve(import.meta.dirname, "../..");
const RESULTS_DIR = path.join(PROJECT_DIR, "bench/results");
const TOKEN_PATH = "/auth/v1/token";
const WARMUP_SIGN_INS = 20;
const WARMUP_REFRESHES = 100;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      "no-build": { type: "boolean", default: false },
      duration: { type: "string", default: "10" },
      connections: { type: "string", default: "10" },
      users: { type: "string", default: "60" },
    },
  });
  const settings = {
    duration: positive(values.duration, "--duration"),
    connections: positive(values.connections, "--connections"),
    users: positive(values.users, "--users"),
  };
  if (!values["no-build"]) {
    console.log("Building the app (npx react-router build)…");
    await buildApp(PROJECT_DIR);
  }
  console.log("Starting the production server (TRUST_PROXY=true)…");
  const watcher = keyWatcher();
  // Each request carries its own X-Forwarded-For, so per-IP limits (150 grants per 5 min) do not
  // cap the run; the server only believes that header with TRUST_PROXY.
  const server = await startServer(PROJECT_DIR, { env: { TRUST_PROXY: "true" }, onOutput: watcher.onOutput });
  try {
    return await bench(server, watcher.keys(), settings);
  } finally {
    await server.stop();
  }
}

async function bench(
  server: RunningServer,
  keys: AuthKeys,
  settings: { duration: number; connections: number; users: number },
): Promise<number> {
  const startedAt = new Date();
  const cpus = os.cpus();
  console.log(`Node ${process.version}, ${cpus[0]?.model.trim() ?? "unknown CPU"} × ${cpus.length}`);
  console.log(`Load average (1 min) before the run: ${(os.loadavg()[0] ?? 0).toFixed(2)}`);

  let t0 = Date.now();
  const emails = await createUsers(server.baseUrl, keys, settings.users);
  console.log(`Created ${emails.length} users through POST /auth/v1/admin/users in ${Date.now() - t0} ms`);

  // Password attempts per address are limited (CORE_LIMITS.passwordPerAddress); spread them.
  const budget = new Map(emails.map((e) => [e, CORE_LIMITS.passwordPerAddress.limit]));
  let cursor = 0;
  const nextEmail = (): string => {
    for (let i = 0; i < emails.length; i++) {
      const email = emails[(cursor + i) % emails.length] as string;
      if ((budget.get(email) ?? 0) > 0) {
        cursor = (cursor + i + 1) % emails.length;
        budget.set(email, (budget.get(email) ?? 0) - 1);
        return email;
      }
    }
    return emails[cursor++ % emails.length] as string; // all used up: this one answers 429
  };

  // Refresh tokens are single use, so each connection takes one from the pool and puts back the
  // one the server answers with; a pool a few times the connection count never runs dry.
  t0 = Date.now();
  const pool: string[] = [];
  for (let i = 0; i < settings.connections * 3; i++) pool.push((await signIn(server.baseUrl, keys, nextEmail())).refresh_token);
  const first = pool.shift() as string;
  pool.push(await refresh(server.baseUrl, keys, first));
  console.log(`Signed in ${pool.length} sessions for the refresh pool in ${Date.now() - t0} ms`);

  const signInScenario = {
    name: "sign-in (password grant)",
    path: `${TOKEN_PATH}?grant_type=password`,
    anonKey: keys.anonKey,
    nextBody: () => ({ email: nextEmail(), password: BENCH_PASSWORD }),
  };
  const refreshScenario = {
    name: "refresh (refresh_token grant)",
    path: `${TOKEN_PATH}?grant_type=refresh_token`,
    anonKey: keys.anonKey,
    nextBody: (context: Record<string, unknown>) => {
      const token = pool.shift() ?? "pool-exhausted";
      context.token = token;
      return { refresh_token: token };
    },
    onResponse: (status: number, body: string, context: Record<string, unknown>) => {
      if (status === 200) pool.push((JSON.parse(body) as { refresh_token: string }).refresh_token);
      // A rate-limited request never used its token.
      else if (status === 429 && typeof context.token === "string") pool.push(context.token);
    },
  };

  const results: ScenarioResult[] = [];
  console.log(
    `\nsign-in: ${WARMUP_SIGN_INS} warm-up requests, then ${settings.duration} s × ${settings.connections} connections…`,
  );
  await runScenario(server.baseUrl, signInScenario, { amount: WARMUP_SIGN_INS, connections: settings.connections });
  results.push(await runScenario(server.baseUrl, signInScenario, settings));
  console.log(resultTable(results.slice(-1)));

  console.log(
    `\nrefresh: ${WARMUP_REFRESHES} warm-up requests, then ${settings.duration} s × ${settings.connections} connections…`,
  );
  await runScenario(server.baseUrl, refreshScenario, { amount: WARMUP_REFRESHES, connections: settings.connections });
  results.push(await runScenario(server.baseUrl, refreshScenario, settings));
  console.log(resultTable(results.slice(-1)));

  console.log("\n=== Summary (latency of 2xx responses; 429s counted apart) ===");
  console.log(resultTable(results));
  console.log("\nPassword hashing (argon2id on the thread pool) dominates sign-in; refresh does no hashing of that kind.");

  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `auth-${startedAt.toISOString().replace(/[:.]/g, "-")}.json`);
  const report = { timestamp: startedAt.toISOString(), node: process.version, cpus: cpus.length, settings, results };
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`Results written to ${path.relative(PROJECT_DIR, file)}`);

  const broken = results.filter((r) => r.okPerSec === 0 || r.errors > 0 || r.timeouts > 0);
  for (const r of broken)
    console.error(`ERROR: ${r.name}: ${JSON.stringify(r.statusCodes)}, ${r.errors} errors, ${r.timeouts} timeouts`);
  return broken.length > 0 ? 1 : 0;
}

function positive(raw: string | undefined, flag: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${flag} must be a positive integer`);
  return n;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`\nERROR: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
