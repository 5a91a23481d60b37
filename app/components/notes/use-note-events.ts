import { useEffect, useRef, useState } from "react";

/** A `status` event of GET /api/notes/:id/events (app/services/notes/note-events.server.ts). */
interface NoteEventState {
  status: string;
  progress: number | null;
}

/**
 * Follows a note's generation over server-sent events while `enabled`: returns the latest
 * progress (0–1 or null) and calls `onDone` once the note is no longer generating, so the page
 * reloads the draft. The organisation rides in the query (EventSource sends no headers); if the
 * stream cannot be opened the page asks again every 3 s.
 */
export function useNoteEvents(options: { noteId: string; orgId: string; enabled: boolean; onDone: () => void }): number | null {
  const { noteId, orgId, enabled } = options;
  const [progress, setProgress] = useState<number | null>(null);
  const onDone = useRef(options.onDone);
  onDone.current = options.onDone;

  useEffect(() => {
    if (!enabled) return;
    let fallback: ReturnType<typeof setInterval> | undefined;
    const poll = () => {
      fallback ??= setInterval(() => onDone.current(), 3000);
    };
    if (typeof EventSource === "undefined") {
      poll();
      return () => clearInterval(fallback);
    }
    const source = new EventSource(`/api/notes/${encodeURIComponent(noteId)}/events?org_id=${encodeURIComponent(orgId)}`);
    source.addEventListener("status", (event) => {
      setProgress((JSON.parse((event as MessageEvent<string>).data) as NoteEventState).progress);
    });
    source.addEventListener("done", () => {
      source.close();
      onDone.current();
    });
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED) poll();
    });
    return () => {
      source.close();
      clearInterval(fallback);
    };
  }, [enabled, noteId, orgId]);

  return progress;
}
