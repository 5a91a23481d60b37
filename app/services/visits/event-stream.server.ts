import { FINAL_STATUSES, type VisitProgressState } from "./visit-events.server.ts";

export interface VisitEventStreamOptions {
  initial: VisitProgressState;
  read: () => Promise<VisitProgressState | null>;
  /**
   * The request whose signal aborts when the client goes away. The stream holds the request, not
   * just its signal: Node's Request follows the server's abort signal only through a weak
   * reference, so once the Request object is collected its signal would never abort and the poll
   * loop would outlive the client.
   */
  request: Request;
  pollMs?: number;
  heartbeatMs?: number;
}

const encoder = new TextEncoder();
const event = (name: string, data: unknown) => encoder.encode(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);

/**
 * The body of GET /api/visits/:id/events (issue 5 "Progress to the page over server-sent
 * events"): a `status` event now and on every change, polled from the database about once a
 * second; a final `done` event once the visit is transcribed or failed, then the end; a comment
 * every 15 s so proxies keep an idle stream open. Ends when the client aborts or cancels, and
 * when the visit can no longer be read (deleted, access lost) — EventSource then reconnects and
 * gets the answer a fresh request would.
 */
export function visitEventStream(options: VisitEventStreamOptions): ReadableStream<Uint8Array> {
  const pollMs = options.pollMs ?? 1000;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  let closed = false;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let wake: (() => void) | undefined;
  let close = () => {};
  const { request } = options;

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
        let state: VisitProgressState | null = options.initial;
        while (!closed && state) {
          const current = JSON.stringify(state);
          if (current !== last) {
            last = current;
            send(event("status", state));
          }
          if (FINAL_STATUSES.includes(state.status)) {
            send(event("done", state));
            break;
          }
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, pollMs);
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
