import pino from "pino";

export type Logger = pino.Logger;

/**
 * Log output allowed to wait for a slow reader (a stalled pipe, a log shipper being restarted)
 * before new lines are dropped and counted. Bounded so a reader that never comes back costs a
 * fixed amount of memory, never the process.
 */
export const LOG_BUFFER_LIMIT_BYTES = 1024 * 1024;

/** What a log sink writes to: process.stdout, or any Node Writable in tests. */
export interface LogTarget {
  write(chunk: string): boolean;
  readonly writableLength?: number;
  readonly writable?: boolean;
  readonly destroyed?: boolean;
  on(event: "error", listener: (err: Error) => void): unknown;
}

/** pino's destination: one JSON line per call. */
export interface LogSink {
  write(line: string): void;
  /** Resolves true once every accepted line has left the process, false after `timeoutMs` or when the reader is gone. */
  flush(timeoutMs: number): Promise<boolean>;
  /** Lines dropped because the reader was gone or too slow. */
  readonly dropped: number;
  /** The reader is gone for good (EPIPE, closed terminal): every further line is dropped. */
  readonly broken: boolean;
}

/**
 * A log destination that never blocks the event loop and never throws. pino's default
 * destination (sonic-boom) flushes synchronously when the process exits and retries a full pipe
 * with Atomics.wait on the main thread, forever: a parent that stopped reading our stdout kept a
 * stopping server alive for good (ADR 10). Here lines go
 * through the stream's own asynchronous writes (libuv, non-blocking for pipes and sockets); while
 * more than `limitBytes` wait for the reader, new lines are dropped and counted, and a line saying
 * how many were lost is written once the reader catches up. A reader that goes away (EPIPE) turns
 * the sink into a counter.
 */
export function createLogSink(target: LogTarget, { limitBytes = LOG_BUFFER_LIMIT_BYTES } = {}): LogSink {
  let broken = false;
  let dropped = 0;
  let unreported = 0;
  guardStream(target, () => {
    broken = true;
  });
  const isGone = () => broken || target.destroyed === true || target.writable === false;
  const pending = () => target.writableLength ?? 0;
  const drop = () => {
    dropped += 1;
    unreported += 1;
  };

  return {
    write(line: string) {
      if (isGone()) return drop();
      const waiting = pending();
      if (waiting + line.length > limitBytes) return drop();
      try {
        if (unreported > 0 && waiting < limitBytes / 2) {
          target.write(
            `${JSON.stringify({ level: 40, time: Date.now(), service: "murmur", dropped: unreported, msg: "log output stalled: lines dropped" })}\n`,
          );
          unreported = 0;
        }
        target.write(line);
      } catch {
        // A synchronous stream (a file) refused the line (disk full…): lose it, not the request.
        drop();
      }
    },
    async flush(timeoutMs: number) {
      // Polled: 'drain' only follows a write that went over the stream's high-water mark.
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (isGone()) return false;
        if (pending() === 0) return true;
        if (Date.now() >= deadline) return false;
        await new Promise((resolve) => setTimeout(resolve, Math.min(20, Math.max(1, deadline - Date.now()))));
      }
    },
    get dropped() {
      return dropped;
    },
    get broken() {
      return isGone();
    },
  };
}

const guarded = new WeakSet<object>();

/**
 * An 'error' listener on a stdio stream, once per stream: without one, EPIPE from a reader that
 * went away is an uncaught exception (console.* only catches synchronous errors), and the
 * uncaught-exception logger would write to the same dead stream.
 */
function guardStream(stream: LogTarget, onBroken: () => void) {
  stream.on("error", onBroken);
  if (guarded.has(stream)) return;
  guarded.add(stream);
  stream.on("error", () => {
    // Nothing to do: the stream is destroyed and later writes are dropped (sinks count them).
  });
}

/** Keeps stdout and stderr errors (EPIPE…) from crashing the process; safe to call more than once. */
export function guardStdio(): void {
  for (const stream of [process.stdout, process.stderr]) {
    if (guarded.has(stream)) continue;
    guarded.add(stream);
    stream.on("error", () => {
      // The reader is gone: what would have been printed is lost, the process carries on.
    });
  }
}

let stdoutSink: LogSink | null = null;

/** The process's one sink on stdout (also guards stderr), created on first use. */
export function stdoutLogSink(): LogSink {
  guardStdio();
  stdoutSink ??= createLogSink(process.stdout);
  return stdoutSink;
}

export function createLogger(level: string, { destination }: { destination?: LogSink } = {}): Logger {
  return pino(
    {
      level,
      base: { service: "murmur" },
      // Never log credentials or patient text that might ride along on a request.
      redact: ["req.headers.authorization", "req.headers.cookie", 'res.headers["set-cookie"]'],
    },
    destination ?? (level === "silent" ? { write() {} } : stdoutLogSink()),
  );
}
