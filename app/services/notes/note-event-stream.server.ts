import { type PollingEventStreamOptions, pollingEventStream } from "#app/services/events/polling-event-stream.server.ts";
import { isFinalNoteStatus, type NoteProgressState } from "./note-events.server.ts";

export type NoteEventStreamOptions = Omit<PollingEventStreamOptions<NoteProgressState>, "isFinal" | "pollMs"> & {
  pollMs?: number;
};

/**
 * The body of GET /api/notes/:id/events (issue 6 "progress over SSE"): polled about twice a second
 * (generation takes seconds, not minutes); `done` once the note is no longer generating.
 */
export function noteEventStream(options: NoteEventStreamOptions): ReadableStream<Uint8Array> {
  return pollingEventStream({ pollMs: 500, ...options, isFinal: (state) => isFinalNoteStatus(state.status) });
}
