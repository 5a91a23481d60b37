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
}

const encoder = new TextEncoder();
const event = (name: string, data: unknown) => encoder.encode(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);

/**
 * A server-sent events body that follows a database row by polling it (so any instance can serve
 * it, with no in-process pub/sub): a `status` event now and on every change, a final `done` event
 * once the state is final, then the end; a comment every 15 s so proxies keep an idle stream
 * open. Ends when the client aborts or cancels, and when the row can no longer be read —
 * EventSource then reconnects and gets the answer a fresh request would.
 */
export function pollingEventStream<S>(options: PollingEventStreamOptions<S>): ReadableStream<Uint8Array> {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const { request } = options;
  let closed = false;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let wake: (() => void) | undefined;
  let close = () => {};

  return new ReadableStream<Uint8Array>({
    start(controller) {
      close = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
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
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, options.pollMs);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
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
