import { useEffect } from "react";
import { useBlocker } from "react-router";

// "Works with the screen locked to one exam" (issue 14), read as: while voice mode is on, the page
// stays on this exam. Any in-app navigation — another page, or another exam of the list (same path,
// other `?exam=`) — asks first (Stay, or Stop listening and leave), the way the recorder guards a
// running recording; closing or reloading the tab asks through beforeunload. The screen itself is
// kept on by the Wake Lock in use-voice-charting.ts.

export type VoiceLeavePrompt = { stay(): void; stopAndLeave(): void };

export function useVoiceLock(active: boolean, stopVoice: () => void): VoiceLeavePrompt | null {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      active && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  useEffect(() => {
    if (!active) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [active]);
  if (blocker.state !== "blocked") return null;
  return {
    stay: () => blocker.reset(),
    stopAndLeave: () => {
      stopVoice();
      blocker.proceed();
    },
  };
}
