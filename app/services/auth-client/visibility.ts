import {
  PING_PATH,
  RECONNECT_EVENT,
  REFRESHED_DATA_EVENT,
  RELOAD_AFTER_AWAY_MS,
  RELOAD_AFTER_AWAY_RECORDING_MS,
  VISIBILITY_IGNORE_WINDOW_MS,
  VISIBILITY_REFRESH_DEBOUNCE_MS,
} from "./constants.ts";
import type { EventHandler } from "./events.ts";
import { isTranscribingPath } from "./paths.ts";
import { describeError, runDetached } from "./timing.ts";
import type { StoreContext } from "./types.ts";

export interface VisibilityActions {
  events: EventHandler;
  checkSession(): Promise<boolean>;
}

/**
 * SPEC §4 Tab visibility. On every change: pause supabase-js auto refresh while hidden and resume it
 * when visible (SPEC §4 Session events), and replay the auth events queued while hidden. Then two
 * handlers, as the spec describes them:
 *  1. visible → refresh the session (at most every 1500 ms), then fire "murmur:refreshed-data";
 *  2. visible after a long absence → reload (5 min, or 30 min while recording), else re-check the user
 *     and, on /transcribing, ping the server and fire "murmur:reconnect". Changes within 2 s of the
 *     previous one are ignored by this handler.
 * The moment the tab was hidden is always recorded, even inside the ignore window, so the time away is
 * measured from when the user actually left.
 */
export function createVisibilityHandler(ctx: StoreContext, actions: VisibilityActions) {
  const { deps } = ctx;
  let lastChangeAt: number | null = null;
  let lastRefreshAt: number | null = null;
  let hiddenSince: number | null = deps.document.visibilityState === "hidden" ? deps.now() : null;

  async function refreshSession(): Promise<void> {
    try {
      // Signed in: force a refresh (the token may have expired while timers were throttled).
      // Anonymous: getSession() is enough to pick up a session another tab created.
      const { error } = ctx.getState().user ? await deps.auth.refreshSession() : await deps.auth.getSession();
      if (error) deps.logger.warn("auth: session refresh on visible failed", { error: describeError(error) });
    } catch (error) {
      deps.logger.warn("auth: session refresh on visible failed", { error: describeError(error) });
    }
    deps.emit(REFRESHED_DATA_EVENT);
  }

  async function reconnect(): Promise<void> {
    let online = false;
    try {
      const res = await deps.fetch(PING_PATH, { method: "HEAD", cache: "no-store" });
      online = res.ok;
    } catch {
      online = false;
    }
    deps.emit(RECONNECT_EVENT, { online });
  }

  function afterAbsence(awayMs: number): void {
    const recording = ctx.hooks.isRecording?.() ?? false;
    const limit = recording ? RELOAD_AFTER_AWAY_RECORDING_MS : RELOAD_AFTER_AWAY_MS;
    if (awayMs > limit) {
      deps.location.reload();
      return;
    }
    runDetached(deps, "session check on visible", () => actions.checkSession());
    if (isTranscribingPath(deps.location.pathname)) runDetached(deps, "reconnect check", reconnect);
  }

  return function onVisibilityChange(): void {
    const now = deps.now();
    const previousChangeAt = lastChangeAt;
    lastChangeAt = now;
    if (deps.document.visibilityState === "hidden") {
      hiddenSince = now;
      runDetached(deps, "stop auto refresh", () => deps.auth.stopAutoRefresh());
      return;
    }
    runDetached(deps, "start auto refresh", () => deps.auth.startAutoRefresh());
    actions.events.replayQueued();
    if (lastRefreshAt === null || now - lastRefreshAt >= VISIBILITY_REFRESH_DEBOUNCE_MS) {
      lastRefreshAt = now;
      runDetached(deps, "session refresh on visible", refreshSession);
    }
    if (previousChangeAt !== null && now - previousChangeAt < VISIBILITY_IGNORE_WINDOW_MS) return;
    afterAbsence(hiddenSince === null ? 0 : now - hiddenSince);
  };
}
