import { isFinalNoteStatus, type NoteProgressState } from "./note-events.server.ts";

export interface NoteEventStreamOptions {
  initial: NoteProgressState;
  read: () => Promise<NoteProgressState | null>;
  /**
   * The request whose signal aborts when the client goes away. Held itself, not just its signal:
   * Node's Request follows the server's abort signal only through a weak reference, so once the
   * Request is collected its signal would never abort and the poll loop would outlive the client.
   */
  request: Request;
  pollMs?: number;
  heartbeatMs?: number;
}

const encoder = new TextEncoder();
const event = (name: string, data: unknown) => encoder.encode(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);

/**
 * The body of GET /api/notes/:id/events (issue 6 "progress over SSE"), the pattern of the visit
 * stream: a `status` event now and on every change (polled about twice a second: generation takes
 * seconds, not minutes), a final `done` once the note is no longer generating, a comment every
 * 15 s for proxies; ends when the client goes or the note can no longer be read.
 */
export function noteEventStream(options: NoteEventStreamOptions): ReadableStream<Uint8Array> {
  const pollMs = options.pollMs ?? 500;
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
      send(encoder.encode("retry: 2000\n\n"));
      const loop = async () => {
        let last = "";
        let state: NoteProgressState | null = options.initial;
        while (!closed && state) {
          const current = JSON.stringify(state);
          if (current !== last) {
            last = current;
            send(event("status", state));
          }
          if (isFinalNoteStatus(state.status)) {
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
