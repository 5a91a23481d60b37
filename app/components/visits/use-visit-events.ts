import { useEffect, useRef, useState } from "react";

/** A `status` event of GET /api/visits/:id/events (app/services/visits/visit-events.server.ts). */
export interface VisitEventState {
  status: string;
  progress: number | null;
  failure: { code: string; reason: string | null } | null;
}

/**
 * Follows a visit's transcription over server-sent events while `enabled`: returns the latest
 * progress (0–1, or null when unknown) and calls `onStatusChange` when the status moves on, so
 * the page reloads its data (the transcript) then. The organisation rides in the query: an
 * EventSource cannot send the x-org-id header. If the stream cannot be opened at all (an error
 * answer, no EventSource), the page falls back to asking again every 5 s.
 */
export function useVisitEvents(options: {
  visitId: string;
  orgId: string;
  status: string;
  initialProgress: number | null;
  enabled: boolean;
  onStatusChange: () => void;
}): number | null {
  const { visitId, orgId, enabled } = options;
  const [progress, setProgress] = useState(options.initialProgress);
  const status = useRef(options.status);
  status.current = options.status;
  const onChange = useRef(options.onStatusChange);
  onChange.current = options.onStatusChange;

  useEffect(() => {
    setProgress(options.initialProgress);
  }, [options.initialProgress]);

  useEffect(() => {
    if (!enabled) return;
    let fallback: ReturnType<typeof setInterval> | undefined;
    const poll = () => {
      fallback ??= setInterval(() => onChange.current(), 5000);
    };
    if (typeof EventSource === "undefined") {
      poll();
      return () => clearInterval(fallback);
    }
    const url = `/api/visits/${encodeURIComponent(visitId)}/events?org_id=${encodeURIComponent(orgId)}`;
    const source = new EventSource(url);
    const apply = (event: MessageEvent<string>) => {
      const state = JSON.parse(event.data) as VisitEventState;
      setProgress(state.progress);
      if (state.status !== status.current) {
        status.current = state.status;
        onChange.current();
      }
    };
    source.addEventListener("status", apply);
    source.addEventListener("done", (event) => {
      source.close();
      apply(event);
    });
    source.addEventListener("error", () => {
      // CLOSED: the server refused the stream (EventSource does not retry that); else it reconnects by itself.
      if (source.readyState === EventSource.CLOSED) poll();
    });
    return () => {
      source.close();
      clearInterval(fallback);
    };
  }, [enabled, visitId, orgId]);

  return progress;
}
