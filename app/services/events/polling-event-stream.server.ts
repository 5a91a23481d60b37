export interface PollingEventStreamOptions<S> {
  initial: S;
  /** The state now; null when it can no longer be read (deleted, access lost): the stream ends. */
  read: () => Promise<S | null>;
  /** After this state nothing changes: `done` is sent and the stream ends. */
  isFinal: (state: S) => boolean;
  /**
   * The request whose signal aborts when the client goes away. The stream holds the request, not
   * just its signal: Node's Request follows the server's abort signal only through a weak
   * reference, so once the Request object is collected its signal would never abort and the poll
   * loop would outlive the client.
   */
  request: Request;
  pollMs: number;
  heartbeatMs?: number;
  /**
   * Announcements that the row changed (progress-notifications.server.ts): each one makes the
   * stream read at once. While they arrive (`live`) the stream polls only every `backstopPollMs`.
   */
  changes?: StreamChanges;
  /** Default 5 s: how often a stream with live change notifications still reads, in case one was lost. */
  backstopPollMs?: number;
}

export interface StreamChanges {
  subscribe(onChange: () => void): () => void;
  readonly live: boolean;
}

const encoder = new TextEncoder();
const event = (name: string, data: unknown) => encoder.encode(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);

/**
 * A server-sent events body that follows a database row by reading it when told it changed
 * (`changes`, PostgreSQL LISTEN/NOTIFY) and by polling it, so any instance can serve it whichever
 * instance changes the row (ADR 0038): a `status` event now and on every change, a final `done` event
 * once the state is final, then the end; a comment every 15 s so proxies keep an idle stream
 * open. Ends when the client aborts or cancels, and when the row can no longer be read —
 * EventSource then reconnects and gets the answer a fresh request would.
 */
export function pollingEventStream<S>(options: PollingEventStreamOptions<S>): ReadableStream<Uint8Array> {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const backstopPollMs = options.backstopPollMs ?? 5000;
  const { request } = options;
  let closed = false;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let wake: (() => void) | undefined;
  let close = () => {};
  let unsubscribe = () => {};
  // A change announced while a read was under way: read again at once rather than wait.
  let changed = false;

  return new ReadableStream<Uint8Array>({
    start(controller) {
      close = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        unsubscribe();
        request.signal.removeEventListener("abort", close);
        wake?.();
        try {
          controller.close();
        } catch {
          // Already cancelled by the consumer.
        }
      };
      const send = (chunk: Uint8Array) => {
        if (!closed) controller.enqueue(chunk);
      };
      if (request.signal.aborted) return close();
      request.signal.addEventListener("abort", close, { once: true });
      heartbeat = setInterval(() => send(encoder.encode(": heartbeat\n\n")), heartbeatMs);
      if (options.changes) {
        unsubscribe = options.changes.subscribe(() => {
          changed = true;
          wake?.();
        });
      }

      // A reconnecting EventSource waits this long (ms) rather than the browser's default.
      send(encoder.encode("retry: 2000\n\n"));
      const loop = async () => {
        let last = "";
        let state: S | null = options.initial;
        while (!closed && state) {
          const current = JSON.stringify(state);
          if (current !== last) {
            last = current;
            send(event("status", state));
          }
          if (options.isFinal(state)) {
            send(event("done", state));
            break;
          }
          if (!changed) {
            const waitMs = options.changes?.live ? Math.max(options.pollMs, backstopPollMs) : options.pollMs;
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, waitMs);
              wake = () => {
                clearTimeout(timer);
                resolve();
              };
            });
          }
          changed = false;
          if (closed) break;
          state = await options.read();
        }
      };
      loop().then(close, close);
    },
    cancel() {
      close();
    },
  });
}
