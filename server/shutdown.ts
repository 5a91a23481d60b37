import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Logger } from "pino";

/** SHUTDOWN_TIMEOUT_MS's default (app/utils/env.server.ts validates the variable). */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

export interface ShutdownOptions {
  server: Server;
  logger: Logger;
  /** From the signal to the exit, whatever still runs (SHUTDOWN_TIMEOUT_MS). */
  timeoutMs?: number;
  /**
   * Stops the job workers while requests drain: running jobs may finish within `graceMs`, and must
   * be handed back to their queue as soon as `signal` aborts (deadline near, or a second signal).
   */
  stopJobs?: (options: { graceMs: number; signal: AbortSignal }) => Promise<void>;
  /**
   * Closes what is left, the database last; runs once requests and jobs are done or out of time
   * (`jobsStopped` false: the job stop is stuck, do not wait for it).
   */
  close: (options: { jobsStopped: boolean }) => Promise<void>;
  /** Pushes buffered log lines out before the exit; resolves within `timeoutMs`. */
  flushLogs?: (timeoutMs: number) => Promise<unknown>;
  /** Log lines lost to a reader that was gone or too slow, for the last line. */
  droppedLogLines?: () => number;
  /** Ends the process once everything is closed (or out of time); `clean` is false when something was cut short. */
  exit?: (signal: NodeJS.Signals, clean: boolean) => void;
}

/**
 * Graceful and bounded. On SIGTERM/SIGINT: stop accepting connections, end event streams (their
 * clients reconnect elsewhere), let in-flight requests finish while the job workers stop, then
 * close the database (the embedded PGlite is closed, not killed mid-write) and exit, all within
 * `timeoutMs`. The last part of that time is kept for closing the database: when it comes,
 * connections still open are cut and running jobs are handed back to their queue. A second
 * signal does that at once; a third exits on the spot. A dead log reader cannot hold any of this
 * up (app/utils/logger.server.ts).
 */
export function installShutdown(options: ShutdownOptions): { shutdown(signal: NodeJS.Signals): void } {
  const { shutdown } = createShutdown(options);
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
  return { shutdown };
}

/** The shutdown sequence without the signal handlers (tests call `shutdown` themselves). */
export function createShutdown(options: ShutdownOptions): { shutdown(signal: NodeJS.Signals): void } {
  const { server, logger, close, flushLogs, droppedLogLines } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  const exit = options.exit ?? exitBySignal;
  // Kept at the end: closing the database, then the last log lines.
  const closeReserveMs = Math.min(3000, Math.floor(timeoutMs / 3));
  const flushMs = Math.min(250, Math.floor(timeoutMs / 20));

  const open = new Set<ServerResponse>();
  server.on("request", (_req: IncomingMessage, res: ServerResponse) => {
    open.add(res);
    res.once("close", () => open.delete(res));
  });

  let signals = 0;
  let firstSignal: NodeJS.Signals = "SIGTERM";
  const hurry = new AbortController();
  let exited = false;
  const finish = (clean: boolean) => {
    if (exited) return;
    exited = true;
    exit(firstSignal, clean);
  };

  const run = async (reason: NodeJS.Signals) => {
    const started = Date.now();
    const deadline = started + timeoutMs;
    const left = () => Math.max(0, deadline - Date.now());
    logger.info({ signal: reason, timeoutMs }, "shutting down");

    const hurryTimer = setTimeout(() => hurry.abort(), timeoutMs - closeReserveMs);
    // The backstop: whatever is still pending, the process ends on time.
    const hardTimer = setTimeout(() => {
      logger.error({ ms: Date.now() - started }, "shutdown deadline reached: exiting now");
      void Promise.resolve(flushLogs?.(flushMs)).finally(() => finish(false));
    }, timeoutMs - flushMs);
    // Only as strong as the event loop: the log sink must never block it (it does not).
    const lastResort = setTimeout(() => finish(false), timeoutMs + 1000);
    lastResort.unref();

    let httpDone = false;
    const drained = new Promise<void>((resolve) =>
      server.close(() => {
        httpDone = true;
        resolve();
      }),
    );
    server.closeIdleConnections();
    for (const res of open) {
      if (String(res.getHeader("content-type") ?? "").startsWith("text/event-stream")) res.destroy();
    }
    // A keep-alive connection goes idle once its request is answered: close it then, not after keepAliveTimeout.
    const idleSweep = setInterval(() => server.closeIdleConnections(), 200);

    let clean = true;
    const jobsStopped = (
      options.stopJobs?.({ graceMs: timeoutMs - closeReserveMs, signal: hurry.signal }) ?? Promise.resolve()
    ).catch((err: unknown) => {
      clean = false;
      logger.error({ err }, "error while stopping jobs");
    });

    await Promise.race([Promise.all([drained, jobsStopped]), aborted(hurry.signal)]);
    clearInterval(idleSweep);
    if (!httpDone) {
      clean = false;
      logger.warn({ open: open.size }, "requests still open: closing their connections");
      server.closeAllConnections();
    }
    // Handing jobs back takes a few queries; the database must still be open for them.
    const jobsDone = await settlesWithin(jobsStopped, left() - closeReserveMs / 2);
    if (!jobsDone) {
      clean = false;
      logger.error("job workers did not stop in time");
    }

    const closed = close({ jobsStopped: jobsDone }).then(
      () => true,
      (err: unknown) => {
        logger.error({ err }, "error while closing");
        return false;
      },
    );
    if (!(await settlesWithin(closed, left() - flushMs))) {
      clean = false;
      logger.error("the database did not close in time");
    } else if (!(await closed)) {
      clean = false;
    }
    clearTimeout(hurryTimer);
    clearTimeout(hardTimer);
    logger.info({ ms: Date.now() - started, clean, droppedLogLines: droppedLogLines?.() ?? 0 }, "stopped");
    await flushLogs?.(Math.min(flushMs, left()));
    finish(clean);
  };

  const shutdown = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals === 1) {
      firstSignal = signal;
      run(signal).catch((err: unknown) => {
        logger.fatal({ err }, "shutdown failed");
        finish(false);
      });
    } else if (signals === 2) {
      logger.warn({ signal }, "second signal: closing the database and exiting now");
      hurry.abort();
    } else {
      logger.warn({ signal }, "third signal: exiting without closing");
      finish(false);
    }
  };
  return { shutdown };
}

/**
 * Ends the process the way the signal's default action would, once everything is closed. Not
 * process.exit(): it joins V8's background threads, and one may be busy compiling PGlite's
 * WebAssembly to optimised code for tens of seconds on a loaded machine (seen: 10-30 s). The
 * parent sees "terminated by SIGTERM" (exit status 143), as for any program stopped by it.
 */
function exitBySignal(signal: NodeJS.Signals, _clean: boolean): void {
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

/** True when `promise` settles within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const settled = await Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), Math.max(0, ms));
    }),
  ]);
  clearTimeout(timer);
  return settled;
}
