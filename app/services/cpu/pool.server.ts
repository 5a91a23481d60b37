import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import { AppError } from "#app/utils/app-error.ts";
import type * as Tasks from "./worker.ts";

// One pool of worker threads per process for the CPU-heavy work a request or job can cause
// (ADR 0037, docs/operations.md "Worker threads"): the event loop only waits for a message, so
// /healthz and every other page keep answering while a long note is signed or printed.

type TaskName = keyof typeof Tasks;
type TaskInput<K extends TaskName> = Parameters<(typeof Tasks)[K]>[0];
type TaskOutput<K extends TaskName> = Awaited<ReturnType<(typeof Tasks)[K]>>;

export const WORKER_PATH = "app/services/cpu/worker.ts";

/** Threads: MURMUR_CPU_THREADS, else one per core less the web thread's (at least 2, at most 4). */
export function cpuPoolSize(env: NodeJS.ProcessEnv = process.env): { threads: number; queue: number } {
  const threads = Number(env.MURMUR_CPU_THREADS);
  const queue = Number(env.MURMUR_CPU_QUEUE);
  return {
    threads:
      Number.isInteger(threads) && threads >= 1 && threads <= 64 ? threads : Math.min(4, Math.max(2, availableParallelism() - 1)),
    queue: Number.isInteger(queue) && queue >= 1 ? queue : 64,
  };
}

/**
 * The worker file, found from this module upwards: beside it in source and in Vitest, from the
 * project folder when this code runs inside the bundle (build/server/index.js). The worker always
 * runs the source through Node's type stripping, so it never depends on the bundle's layout.
 */
function workerFile(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, WORKER_PATH);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`worker file ${WORKER_PATH} not found above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

let pool: Piscina | null = null;
let queueLimit = 64;

function cpuPool(): Piscina {
  if (pool) return pool;
  const { threads, queue } = cpuPoolSize();
  queueLimit = queue;
  pool = new Piscina({
    filename: workerFile(),
    minThreads: 1,
    maxThreads: threads,
    // A thread keeps its loaded indexes (coding engine, fonts) for a minute between tasks.
    idleTimeout: 60_000,
    maxQueue: queue,
  });
  return pool;
}

export const cpuErrors = {
  busy: () => new AppError(503, "server_busy", "The server is busy with other long tasks: try again in a moment"),
};

/** Runs task `name` on a worker thread; 503 server_busy when `queue` tasks already wait. */
export async function runCpu<K extends TaskName>(
  name: K,
  input: TaskInput<K>,
  options: { signal?: AbortSignal } = {},
): Promise<TaskOutput<K>> {
  const current = cpuPool();
  if (current.queueSize >= queueLimit) throw cpuErrors.busy();
  return (await current.run(input, { name, ...(options.signal ? { signal: options.signal } : {}) })) as TaskOutput<K>;
}

/** Tasks run so far and the threads alive (the tests check work really went to the pool). */
export function cpuPoolStats(): { completed: number; threads: number; queued: number } {
  return { completed: pool?.completed ?? 0, threads: pool?.threads.length ?? 0, queued: pool?.queueSize ?? 0 };
}

/** At shutdown: running tasks finish (a job's own abort signal ends its task sooner). */
export async function closeCpuPool(): Promise<void> {
  const current = pool;
  pool = null;
  await current?.close();
}
