import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { abortError, SpeechError, type SpeechErrorCode } from "#app/services/speech/errors.ts";

export interface ProcessResult {
  exitCode: number | null;
  stdout: string;
  /** The tail of stderr only: decoders can log megabytes and the caller needs the last complaint. */
  stderr: string;
}

export interface RunProcessOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called for each complete stdout line as it arrives (streaming partial results). */
  onStdoutLine?: (line: string) => void;
  /** Called for each complete stderr line (decoders log state there). */
  onStderrLine?: (line: string) => void;
  /** Code of the SpeechError thrown when the binary is not installed. */
  missingCode: SpeechErrorCode;
  /** Code of the SpeechError thrown when the process outlives timeoutMs. */
  timeoutCode: SpeechErrorCode;
  /** Code of the SpeechError thrown when the process cannot be started for another reason. */
  failureCode: SpeechErrorCode;
  /** Text written to the child's stdin, which is then closed (else stdin is not connected). */
  stdin?: string;
}

const STDERR_TAIL_BYTES = 16_384;

/**
 * Runs a tool out of process so CPU-heavy decoding never blocks the web process's event loop.
 * The child is killed (SIGKILL: decoders ignore nothing else reliably mid-frame) on timeout or abort.
 */
export function runProcess(command: string, args: readonly string[], options: RunProcessOptions): Promise<ProcessResult> {
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(abortError(signal));

  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: [options.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    }) as ChildProcessWithoutNullStreams;
    if (options.stdin !== undefined) {
      // A child that exits before reading all of it closes the pipe: that is its answer, not a crash.
      child.stdin.on("error", () => {});
      child.stdin.end(options.stdin);
    }
    const stdoutChunks: string[] = [];
    let stderr = "";
    let pending = "";
    let pendingErr = "";
    let settled = false;

    const finish = (error: SpeechError | null, result?: ProcessResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      if (error) {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
        reject(error);
      } else if (result) {
        resolve(result);
      }
    };

    const timer = setTimeout(() => {
      finish(new SpeechError(options.timeoutCode, `${command} did not finish within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    const onAbort = () => {
      if (signal) finish(abortError(signal));
    };
    signal?.addEventListener("abort", onAbort, { once: true });

    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      stdoutChunks.push(chunk);
      if (!options.onStdoutLine) return;
      pending += chunk;
      let newline = pending.indexOf("\n");
      while (newline >= 0) {
        options.onStdoutLine(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
        newline = pending.indexOf("\n");
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL_BYTES);
      if (!options.onStderrLine) return;
      pendingErr += chunk;
      let newline = pendingErr.indexOf("\n");
      while (newline >= 0) {
        options.onStderrLine(pendingErr.slice(0, newline));
        pendingErr = pendingErr.slice(newline + 1);
        newline = pendingErr.indexOf("\n");
      }
    });

    child.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") {
        finish(new SpeechError(options.missingCode, `${command} is not installed`, { cause: error }));
      } else {
        finish(new SpeechError(options.failureCode, error.message, { cause: error }));
      }
    });
    child.on("close", (exitCode) => {
      if (options.onStdoutLine && pending.length > 0 && !settled) options.onStdoutLine(pending);
      if (options.onStderrLine && pendingErr.length > 0 && !settled) options.onStderrLine(pendingErr);
      finish(null, { exitCode, stdout: stdoutChunks.join(""), stderr });
    });
  });
}

/** Last non-empty line of a tool's stderr: the line that says why it failed. */
export function lastLine(text: string): string {
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  return (lines.at(-1) ?? "").slice(0, 300);
}
