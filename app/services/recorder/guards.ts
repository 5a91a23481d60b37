import type { AuthHooks } from "#app/services/auth-client/types.ts";

export interface BeforeUnloadEventLike {
  preventDefault(): void;
  returnValue: unknown;
}

export interface UnloadTarget {
  addEventListener(type: "beforeunload", listener: (event: BeforeUnloadEventLike) => void): void;
  removeEventListener(type: "beforeunload", listener: (event: BeforeUnloadEventLike) => void): void;
}

export interface RecorderProbes {
  /** A recording is running, paused or being stopped on this page. */
  isRecording(): boolean;
  /** Audio (or a manifest) this page holds that the server has not acknowledged. */
  hasUnsentAudio(): boolean;
}

/**
 * Issue 5: warn before leaving while audio is unsent. The browser shows its own wording; a listener that
 * stays registered when there is nothing to protect would also cost the page its back/forward cache, so
 * the check happens inside and the event is cancelled only when needed.
 */
export function installBeforeUnloadGuard(target: UnloadTarget, probes: RecorderProbes): () => void {
  const listener = (event: BeforeUnloadEventLike) => {
    if (!probes.isRecording() && !probes.hasUnsentAudio()) return;
    event.preventDefault();
    // Older Chromium and Safari need returnValue set to show the prompt.
    event.returnValue = "";
  };
  target.addEventListener("beforeunload", listener);
  return () => target.removeEventListener("beforeunload", listener);
}

/**
 * The auth store's recorder hooks: isRecording (SPEC §4 Tab visibility: 30 min instead of 5 before a
 * reload) and hasUnsentAudio, which a sign-out confirmation can read once the auth store declares it
 * (see the report of issue 5). The extra hook is carried through setHooks' merge untouched.
 */
export function registerRecorderAuthHooks(store: { setHooks(hooks: AuthHooks): void } | null, probes: RecorderProbes): boolean {
  if (!store) return false;
  const hooks: AuthHooks & { hasUnsentAudio(): boolean } = {
    isRecording: () => probes.isRecording(),
    hasUnsentAudio: () => probes.hasUnsentAudio(),
  };
  store.setHooks(hooks);
  return true;
}
