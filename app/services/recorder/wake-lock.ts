/** navigator.wakeLock and its sentinel, as far as the recorder uses them. */
export interface WakeLockSentinelLike {
  readonly released: boolean;
  release(): Promise<void>;
}
export interface WakeLockLike {
  request(type: "screen"): Promise<WakeLockSentinelLike>;
}

/**
 * Keeps the screen on while recording (issue 5): a sleeping device may suspend the page and its
 * microphone. Browsers drop the lock whenever the tab is hidden, so it is asked for again each time the
 * tab becomes visible (reacquire()). Refusals (battery saver, unsupported browser) are not errors.
 */
export function createWakeLockKeeper(wakeLock: WakeLockLike | null, onChange: (held: boolean) => void) {
  let wanted = false;
  let sentinel: WakeLockSentinelLike | null = null;
  let requesting = false;

  async function request(): Promise<void> {
    if (!wakeLock || !wanted || requesting || (sentinel && !sentinel.released)) return;
    requesting = true;
    try {
      sentinel = await wakeLock.request("screen");
      if (!wanted) {
        // Stopped while the request was pending.
        await sentinel.release();
        sentinel = null;
      }
    } catch {
      sentinel = null;
    } finally {
      requesting = false;
      onChange(!!sentinel && !sentinel.released);
    }
  }

  return {
    acquire(): Promise<void> {
      wanted = true;
      return request();
    },
    /** Call when the tab becomes visible again. */
    reacquire(): Promise<void> {
      return request();
    },
    async release(): Promise<void> {
      wanted = false;
      const current = sentinel;
      sentinel = null;
      onChange(false);
      if (current && !current.released) await current.release().catch(() => undefined);
    },
    held: (): boolean => !!sentinel && !sentinel.released,
  };
}
