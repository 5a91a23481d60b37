import type { AuthStoreDeps } from "./types.ts";

type Timers = Pick<AuthStoreDeps, "setTimeout" | "clearTimeout">;

/**
 * Resolves with the promise's value, or with `fallback` once `ms` have passed, whichever comes first.
 * A rejection also yields the fallback: every caller treats "failed" and "too slow" alike.
 */
export function settleWithin<T, F>(timers: Timers, promise: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  return new Promise<T | F>((resolve) => {
    const handle = timers.setTimeout(() => resolve(fallback), ms);
    promise.then(
      (value) => {
        timers.clearTimeout(handle);
        resolve(value);
      },
      () => {
        timers.clearTimeout(handle);
        resolve(fallback);
      },
    );
  });
}

/** Runs a possibly-async task without waiting, logging (not throwing) its failure. */
export function runDetached(deps: Pick<AuthStoreDeps, "logger">, label: string, task: () => unknown): void {
  try {
    const result = task();
    if (result instanceof Promise) {
      result.catch((error: unknown) => deps.logger.error(`auth: ${label} failed`, { error: describeError(error) }));
    }
  } catch (error) {
    deps.logger.error(`auth: ${label} failed`, { error: describeError(error) });
  }
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (error && typeof error === "object" && "message" in error && typeof error.message === "string") return error.message;
  return String(error);
}

/** SPEC §3 Authentication error: message, status, code — read from whatever supabase-js threw or returned. */
export function authErrorFields(error: unknown): { message: string; code: string | null; status: number | null } {
  const record = error && typeof error === "object" ? (error as Record<string, unknown>) : {};
  return {
    message: describeError(error),
    code: typeof record.code === "string" ? record.code : null,
    status: typeof record.status === "number" ? record.status : null,
  };
}
