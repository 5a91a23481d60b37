import { errorStore as appErrorStore } from "#app/utils/error-store.ts";
import { runMigrationCleanup } from "./cleanup.ts";
import {
  AUTH_ERRORS_KEPT,
  FAILED_LOGIN_ALERT_THRESHOLD,
  RECENT_AUTH_ERRORS_WINDOW_MS,
  REPORTED_AUTH_ERROR_CONTEXTS,
  SESSION_EXPIRED_REDIRECT_MS,
} from "./constants.ts";
import { createEventHandler } from "./events.ts";
import { INITIAL_AUTH_STATE } from "./initial-state.ts";
import { isLoginPath, loginPathFor } from "./paths.ts";
import { runSignOut } from "./sign-out.ts";
import { authErrorFields } from "./timing.ts";
import type {
  AuthErrorEntry,
  AuthErrorInput,
  AuthEvent,
  AuthHooks,
  AuthSessionLike,
  AuthState,
  AuthStoreDeps,
  MigrationRecord,
  SignOutMode,
  StoreContext,
} from "./types.ts";
import { createVisibilityHandler } from "./visibility.ts";

export { INITIAL_AUTH_STATE };

/** SPEC §7 sign-in errors carry message, status and code (GoTrue's AuthError shape). */
export interface LoginError {
  message: string;
  code?: string | null | undefined;
  status?: number | null | undefined;
}

/** SPEC §4 Session expiry: the translated toast text. */
const SESSION_EXPIRED_KEY = "common:toasts.sessionExpired";

/**
 * The browser's auth store (SPEC §3 Auth store, §4 Session events … Migration cleanup): framework-free,
 * subscribe/getState, every browser API injected. React reads it through use-auth-store.ts.
 */
export function createAuthStore(deps: AuthStoreDeps) {
  let state: AuthState = INITIAL_AUTH_STATE;
  const listeners = new Set<() => void>();
  const ctx: StoreContext = {
    deps,
    hooks: {
      onOrganisationLoad: deps.onOrganisationLoad,
      onOrganisationClear: deps.onOrganisationClear,
      isRecording: deps.isRecording,
      hasUnsentAudio: deps.hasUnsentAudio,
    },
    getState: () => state,
    setState(patch) {
      state = { ...state, ...patch };
      for (const listener of listeners) listener();
    },
  };
  const errorStore = deps.errorStore ?? appErrorStore;
  const events = createEventHandler(ctx);
  let signOutInFlight: Promise<SignOutMode> | null = null;
  let stop: (() => void) | null = null;

  /** SPEC §3, §8: keep the last 5; signIn and session_expired entries are reported (severity high). */
  function pushError(input: AuthErrorInput): AuthErrorEntry {
    const entry: AuthErrorEntry = {
      message: input.message,
      code: input.code ?? null,
      status: input.status ?? null,
      timestamp: deps.now(),
      context: input.context,
    };
    ctx.setState({ errors: [...state.errors, entry].slice(-AUTH_ERRORS_KEPT) });
    if (REPORTED_AUTH_ERROR_CONTEXTS.includes(entry.context)) {
      errorStore.add({
        message: entry.message,
        type: "auth",
        severity: "high",
        context: { context: entry.context, code: entry.code, status: entry.status },
      });
    }
    return entry;
  }

  /** SPEC §4 Session expiry: toast now, /login (current language) after 2 s unless already there. */
  function expireSession(reason: unknown): void {
    ctx.setState({ user: null, lastSessionCheck: null });
    pushError({ ...authErrorFields(reason), context: "session_expired" });
    deps.showToast(deps.t(SESSION_EXPIRED_KEY));
    deps.setTimeout(() => {
      const { pathname } = deps.location;
      if (!isLoginPath(pathname)) deps.location.assign(loginPathFor(pathname));
    }, SESSION_EXPIRED_REDIRECT_MS);
  }

  /** Re-fetches the user from the auth server; false when there is none (SPEC §4 Session expiry). */
  async function checkSession(): Promise<boolean> {
    ctx.setState({ authProcessing: true });
    let failure: unknown = null;
    let user: AuthState["user"] = null;
    try {
      const { data, error } = await deps.auth.getUser();
      if (error) failure = error;
      else user = data.user;
    } catch (error) {
      failure = error;
    }
    ctx.setState({ authProcessing: false });
    if (user) {
      ctx.setState({ user, lastSessionCheck: deps.now() });
      return true;
    }
    if (state.user) expireSession(failure ?? new Error("No user"));
    return false;
  }

  ctx.expireSession = expireSession;
  const onVisibilityChange = createVisibilityHandler(ctx, { events, checkSession });

  return {
    getState: (): AuthState => state,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },

    /** Listens to supabase-js and to the tab's visibility. Idempotent; returns a stop function. */
    start(): () => void {
      if (stop) return stop;
      let active = true;
      const { data } = deps.auth.onAuthStateChange((event, session) => {
        if (active) events.handle(event, session);
      });
      deps.document.addEventListener("visibilitychange", () => {
        if (active) onVisibilityChange();
      });
      stop = () => {
        active = false;
        data.subscription.unsubscribe();
      };
      return stop;
    },

    /** Entry point for supabase-js events (start() wires it; tests call it directly). */
    handleAuthEvent(event: AuthEvent, session: AuthSessionLike | null): void {
      events.handle(event, session);
    },
    /** Exposed for tests and for callers that drive visibility themselves. */
    handleVisibilityChange: onVisibilityChange,

    checkSession,

    /** SPEC §4 Sign-out. A second call while one runs joins it. */
    signOut(options: { fast?: boolean } = {}): Promise<SignOutMode> {
      signOutInFlight ??= runSignOut(ctx, options.fast ?? false).finally(() => {
        signOutInFlight = null;
      });
      return signOutInFlight;
    },

    /** SPEC §4 Failed logins: count, and flag a security concern past 3 failures. */
    recordLoginFailure(error: LoginError): void {
      const attempts = state.loginAttempts + 1;
      ctx.setState({ loginAttempts: attempts, lastLoginAttempt: deps.now() });
      pushError({ message: error.message, code: error.code, status: error.status, context: "signIn" });
      if (attempts > FAILED_LOGIN_ALERT_THRESHOLD) {
        deps.logger.warn("auth: security concern, repeated failed logins", { loginAttempts: attempts });
        errorStore.add({
          message: `Multiple failed login attempts (${attempts})`,
          type: "security",
          severity: "high",
          context: { loginAttempts: attempts },
        });
      }
    },
    recordLoginSuccess(): void {
      ctx.setState({ loginAttempts: 0, lastLoginAttempt: null });
    },

    pushError,
    /** SPEC §9: errors of the last 5 minutes. */
    getRecentErrors(): readonly AuthErrorEntry[] {
      const since = deps.now() - RECENT_AUTH_ERRORS_WINDOW_MS;
      return state.errors.filter((entry) => entry.timestamp >= since);
    },

    runMigrationCleanup: (): MigrationRecord | null => runMigrationCleanup(deps),

    /** The update-password page calls this once it has handled the recovery. */
    clearRecovery(): void {
      ctx.setState({ recovering: false });
    },
    /** Whether signing out now would leave a recording or unsent audio behind (the recorder's hooks). */
    hasAudioAtRisk(): boolean {
      return (ctx.hooks.isRecording?.() ?? false) || (ctx.hooks.hasUnsentAudio?.() ?? false);
    },
    /** Late registration of the organisation and recorder hooks (SPEC §4). */
    setHooks(hooks: AuthHooks): void {
      ctx.hooks = { ...ctx.hooks, ...hooks };
    },
  };
}

export type AuthStore = ReturnType<typeof createAuthStore>;
