import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";

const POLL_MS = 2000;
const MAX_POLLS = 15;

/**
 * Issue 29: the note is drafted by the transcription job just after it marks the visit
 * transcribed, in its own transaction. While the page shows a transcribed visit without a note it
 * reloads its data a few times (30 s at most); once the note exists the loader opens the note.
 */
export function useAwaitDraft(waiting: boolean): void {
  const revalidator = useRevalidator();
  const polls = useRef(0);
  const state = revalidator.state;
  useEffect(() => {
    if (!waiting || state !== "idle" || polls.current >= MAX_POLLS) return;
    const timer = setTimeout(() => {
      polls.current += 1;
      void revalidator.revalidate();
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [waiting, state, revalidator]);
}
