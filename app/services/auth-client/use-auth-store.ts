import { useSyncExternalStore } from "react";
import type { AuthStore } from "./auth-store.ts";
import { INITIAL_AUTH_STATE } from "./initial-state.ts";
import type { AuthState } from "./types.ts";

// The store only exists once start.client.ts has loaded (after hydration, with supabase-js), but
// components subscribe from their first render. This holder bridges the two: until a store is
// provided every reader sees INITIAL_AUTH_STATE (loading, not initialised) — also on the server.
let active: AuthStore | null = null;
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};

/** Called once by startAuthClient(). */
export function provideAuthStore(store: AuthStore): void {
  if (active === store) return;
  active = store;
  store.subscribe(notify);
  notify();
}

/** The running store (for actions: signOut, checkSession, recordLoginFailure…), or null before start. */
export function getAuthStore(): AuthStore | null {
  return active;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const getSnapshot = (): AuthState => active?.getState() ?? INITIAL_AUTH_STATE;
const getServerSnapshot = (): AuthState => INITIAL_AUTH_STATE;

/**
 * Reads a slice of the auth state and re-renders when it changes. The selector must return a value
 * that is stable while the state is unchanged (a field, not a new object), as useSyncExternalStore
 * compares snapshots with Object.is.
 */
export function useAuthStore<T>(selector: (state: AuthState) => T): T {
  return useSyncExternalStore(
    subscribe,
    () => selector(getSnapshot()),
    () => selector(getServerSnapshot()),
  );
}
