import { VISIT_LOCK_PREFIX } from "./constants.ts";

/** The part of navigator.locks (Web Locks API) used here. */
export interface LockManagerLike {
  request(name: string, options: { ifAvailable: boolean }, callback: (lock: unknown) => unknown): Promise<unknown>;
}

/**
 * One tab at a time owns a visit's local audio: the tab recording it, or the tab that recovered it.
 * Claims are held until released or until the tab goes away (the browser then frees the lock, which is
 * how the next page load knows a "recording" session was left behind). Without Web Locks every claim
 * succeeds: two tabs may then upload the same chunks, which the server answers as duplicates.
 */
export function createVisitLocks(locks: LockManagerLike | null) {
  const held = new Map<string, () => void>();
  return {
    claim(visitId: string): Promise<boolean> {
      if (held.has(visitId)) return Promise.resolve(true);
      if (!locks) {
        held.set(visitId, () => {});
        return Promise.resolve(true);
      }
      return new Promise<boolean>((resolve) => {
        locks
          .request(`${VISIT_LOCK_PREFIX}${visitId}`, { ifAvailable: true }, (lock) => {
            if (!lock) {
              resolve(false);
              return undefined;
            }
            return new Promise<void>((release) => {
              held.set(visitId, release);
              resolve(true);
            });
          })
          .catch(() => {
            // A browser that refuses locks here must not stop a recording.
            held.set(visitId, () => {});
            resolve(true);
          });
      });
    },
    release(visitId: string): void {
      held.get(visitId)?.();
      held.delete(visitId);
    },
    owns: (visitId: string): boolean => held.has(visitId),
    held: (): string[] => [...held.keys()],
  };
}

export type VisitLocks = ReturnType<typeof createVisitLocks>;
