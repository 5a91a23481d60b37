import { abortError } from "#app/services/speech/errors.ts";

/**
 * At most `max` tasks at once, first come first served. Decoders are CPU-bound: on a 2-core
 * machine a second concurrent decode would take the core the web process needs.
 */
export function createLimiter(max: number) {
  let running = 0;
  const queue: (() => void)[] = [];
  // A finishing task hands its slot straight to the next waiter so no newcomer can slip in between.
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else running -= 1;
  };
  const acquire = (signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortError(signal));
        return;
      }
      if (running < max) {
        running += 1;
        resolve();
        return;
      }
      const start = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = () => {
        const index = queue.indexOf(start);
        if (index >= 0) queue.splice(index, 1);
        if (signal) reject(abortError(signal));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      queue.push(start);
    });
  return async function limit<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await acquire(signal);
    try {
      return await task();
    } finally {
      release();
    }
  };
}
