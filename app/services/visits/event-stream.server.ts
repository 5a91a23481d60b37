import { type PollingEventStreamOptions, pollingEventStream } from "#app/services/events/polling-event-stream.server.ts";
import { FINAL_STATUSES, type VisitProgressState } from "./visit-events.server.ts";

export type VisitEventStreamOptions = Omit<PollingEventStreamOptions<VisitProgressState>, "isFinal" | "pollMs"> & {
  pollMs?: number;
};

/**
 * The body of GET /api/visits/:id/events (issue 5 "Progress to the page over server-sent
 * events"): the visit's status, progress and failure, polled from the database about once a
 * second; `done` once the visit is transcribed or failed.
 */
export function visitEventStream(options: VisitEventStreamOptions): ReadableStream<Uint8Array> {
  return pollingEventStream({
    pollMs: 1000,
    ...options,
    isFinal: (state) => FINAL_STATUSES.includes(state.status),
  });
}
