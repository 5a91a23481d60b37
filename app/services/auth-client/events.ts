import { clearLegacyOrgData, clearOrgStorage, runMigrationCleanup } from "./cleanup.ts";
import { isLoginPath } from "./paths.ts";
import { runDetached } from "./timing.ts";
import type { AuthEvent, AuthSessionLike, StoreContext } from "./types.ts";

/** SPEC §4 Session events: these two run even while the tab is hidden; everything else waits. */
const IMMEDIATE_EVENTS: readonly AuthEvent[] = ["SIGNED_IN", "SIGNED_OUT"];

/**
 * Auth state and in-memory/stored organisation state go together (SPEC §4 SIGNED_OUT and "session
 * lost"): the organisation hook clears id, list and request header; the store clears the stored key and
 * the cookie. Realtime auth is reset by supabase-js itself on SIGNED_OUT.
 */
export function clearAuthAndOrganisation(ctx: StoreContext): void {
  ctx.setState({ user: null, loading: false, authProcessing: false, lastSessionCheck: null, recovering: false });
  runDetached(ctx.deps, "organisation clear", () => ctx.hooks.onOrganisationClear?.());
  runDetached(ctx.deps, "organisation storage clear", () => clearOrgStorage(ctx.deps));
}

/**
 * SPEC §4 SIGNED_IN / INITIAL_SESSION background tasks: migration cleanup, organisation load, legacy
 * organisation data. Deferred with a 0 ms timer because supabase-js runs onAuthStateChange callbacks
 * under its auth lock: calling supabase (as the organisation load does) inside the callback deadlocks.
 * Migration cleanup goes first so it cannot remove an organisation cookie the load has just written.
 */
function scheduleSignedInTasks(ctx: StoreContext): void {
  ctx.deps.setTimeout(() => {
    runDetached(ctx.deps, "migration cleanup", () => runMigrationCleanup(ctx.deps));
    runDetached(ctx.deps, "organisation load", () => ctx.hooks.onOrganisationLoad?.());
    runDetached(ctx.deps, "legacy organisation cleanup", () => clearLegacyOrgData(ctx.deps));
  }, 0);
}

function applyEvent(ctx: StoreContext, event: AuthEvent, session: AuthSessionLike | null): void {
  const { deps } = ctx;
  const state = ctx.getState();
  // SPEC §4: INITIAL_SESSION is ignored on the login page (any language), which handles sign-in itself.
  if (event === "INITIAL_SESSION" && isLoginPath(deps.location.pathname)) return;
  // SPEC §4: SIGNED_IN is ignored while a sign-out is running, so the user is not put back.
  if (event === "SIGNED_IN" && state.signingOut) return;
  if (event === "SIGNED_OUT") {
    // Nobody here asked for it (the session was revoked on the server, or a refresh was refused):
    // for the person at the screen their session expired (SPEC §4 Session expiry, §8).
    const unexpected = state.user !== null && !state.signingOut;
    clearAuthAndOrganisation(ctx);
    ctx.setState({ authInitialized: true });
    if (unexpected) ctx.expireSession?.(new Error("signed out by the auth server"));
    return;
  }
  if (!session) {
    if (state.user) {
      // SPEC §4: any other event without a session while a user was set means the session was lost.
      deps.logger.error("auth: session lost", { event });
      clearAuthAndOrganisation(ctx);
    }
    if (event === "INITIAL_SESSION") ctx.setState({ authInitialized: true, loading: false });
    return;
  }
  const now = deps.now();
  switch (event) {
    case "SIGNED_IN":
      ctx.setState({ user: session.user, loginAttempts: 0, lastSessionCheck: now, authInitialized: true, loading: false });
      scheduleSignedInTasks(ctx);
      return;
    case "INITIAL_SESSION":
      ctx.setState({ user: session.user, lastSessionCheck: now, authInitialized: true, loading: false });
      scheduleSignedInTasks(ctx);
      return;
    case "TOKEN_REFRESHED":
      ctx.setState({ user: session.user, lastSessionCheck: now });
      return;
    case "PASSWORD_RECOVERY":
      ctx.setState({ user: session.user, recovering: true });
      return;
    default:
      // USER_UPDATED, and MFA_CHALLENGE_VERIFIED which also carries the (upgraded) session.
      ctx.setState({ user: session.user });
  }
}

/**
 * Receives supabase-js auth events. While the tab is hidden, events other than SIGNED_IN/SIGNED_OUT are
 * queued and replayed in arrival order when it is visible again (SPEC §4 Session events).
 */
export function createEventHandler(ctx: StoreContext) {
  const queue: { event: AuthEvent; session: AuthSessionLike | null }[] = [];
  return {
    handle(event: AuthEvent, session: AuthSessionLike | null): void {
      if (ctx.deps.document.visibilityState === "hidden" && !IMMEDIATE_EVENTS.includes(event)) {
        queue.push({ event, session });
        return;
      }
      applyEvent(ctx, event, session);
    },
    /** Called when the tab becomes visible. */
    replayQueued(): void {
      const pending = queue.splice(0);
      for (const { event, session } of pending) applyEvent(ctx, event, session);
    },
    queuedCount(): number {
      return queue.length;
    },
  };
}

export type EventHandler = ReturnType<typeof createEventHandler>;
