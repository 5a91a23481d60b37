import { clearLocalData } from "./cleanup.ts";
import {
  CLIENT_SIGN_OUT_TIMEOUT_MS,
  SERVER_LOGOUT_PATH,
  SERVER_LOGOUT_TIMEOUT_MS,
  SERVER_LOGOUT_TOLERATED_STATUSES,
  SIGN_OUT_FAST_PATH_IDLE_MS,
  SIGN_OUT_REDIRECT_RETRY_MS,
  SIGN_OUT_TOKEN_WAIT_FAST_MS,
  SIGN_OUT_TOKEN_WAIT_FULL_MS,
} from "./constants.ts";
import { isLoginPath, loginPathFor } from "./paths.ts";
import { describeError, runDetached, settleWithin } from "./timing.ts";
import type { SignOutMode, StoreContext } from "./types.ts";

const TIMED_OUT = Symbol("timed out");

/** SPEC §4 Sign-out: hidden tab, a stale last user check, or an explicit request → fast path. */
export function chooseSignOutMode(ctx: StoreContext, fast: boolean): SignOutMode {
  if (fast || ctx.deps.document.visibilityState === "hidden") return "fast";
  const last = ctx.getState().lastSessionCheck;
  // Never checked counts as stale: nothing says the session (and so the server call) is healthy.
  if (last === null || ctx.deps.now() - last > SIGN_OUT_FAST_PATH_IDLE_MS) return "fast";
  return "full";
}

/** SPEC §4: the access token is read before local data is cleared, waiting 300 ms (fast) or 600 ms (full). */
async function captureAccessToken(ctx: StoreContext, mode: SignOutMode): Promise<string | null> {
  const wait = mode === "fast" ? SIGN_OUT_TOKEN_WAIT_FAST_MS : SIGN_OUT_TOKEN_WAIT_FULL_MS;
  const result = await settleWithin(ctx.deps, ctx.deps.auth.getSession(), wait, TIMED_OUT);
  if (result === TIMED_OUT) {
    ctx.deps.logger.warn("auth: sign-out went on without the access token", { mode, waitedMs: wait });
    return null;
  }
  return result.data.session?.access_token ?? null;
}

/**
 * SPEC §7 POST /api/auth/logout with the bearer token, aborted after 1200 ms. Returns whether the server
 * signed the session out; 401/403/404 mean it was already gone (SPEC §8), anything else is a non-fatal
 * failure. keepalive lets the fast path's request outlive the navigation to /login that follows it.
 */
async function serverLogout(ctx: StoreContext, token: string | null): Promise<boolean> {
  const { deps } = ctx;
  const controller = new AbortController();
  const url = deps.debug?.() ? `${SERVER_LOGOUT_PATH}?d=1` : SERVER_LOGOUT_PATH;
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  const request = deps
    .fetch(url, { method: "POST", headers, credentials: "same-origin", keepalive: true, signal: controller.signal })
    .then((res) => res.ok || SERVER_LOGOUT_TOLERATED_STATUSES.includes(res.status));
  // The race also covers a fetch that ignores its abort signal.
  const result = await settleWithin(deps, request, SERVER_LOGOUT_TIMEOUT_MS, TIMED_OUT);
  if (result === TIMED_OUT) controller.abort();
  if (result !== true) deps.logger.warn("auth: server logout failed (non-fatal)", { timedOut: result === TIMED_OUT });
  return result === true;
}

/** supabase-js's own sign-out, local scope: drops the session it still holds and emits SIGNED_OUT. */
async function clientSignOut(ctx: StoreContext): Promise<void> {
  const { error } = await ctx.deps.auth.signOut({ scope: "local" });
  if (error) throw error;
}

/** SPEC §4: end at /login (current language), trying once more after 80 ms if the page did not move. */
function redirectToLogin(ctx: StoreContext, done: () => void): void {
  const { location } = ctx.deps;
  const target = loginPathFor(location.pathname);
  location.assign(target);
  ctx.deps.setTimeout(() => {
    if (!isLoginPath(location.pathname)) location.assign(target);
    done();
  }, SIGN_OUT_REDIRECT_RETRY_MS);
}

/** SPEC §4 Sign-out, both paths. Resolves with the path taken once the redirect has been issued. */
export async function runSignOut(ctx: StoreContext, fast: boolean): Promise<SignOutMode> {
  const mode = chooseSignOutMode(ctx, fast);
  ctx.setState({ signingOut: true, authProcessing: true });
  const token = await captureAccessToken(ctx, mode);
  // SPEC §4 local cleanup: the user, cached keys, auth items and the organisation id.
  ctx.setState({ user: null, lastSessionCheck: null, recovering: false });
  clearLocalData(ctx.deps);
  runDetached(ctx.deps, "organisation clear", () => ctx.hooks.onOrganisationClear?.());
  const server = serverLogout(ctx, token);
  if (mode === "fast") {
    // SPEC §4: the fast path waits for neither.
    runDetached(ctx.deps, "client sign-out", () => clientSignOut(ctx));
  } else if (!(await server)) {
    // SPEC §4: the server failed, so wait (1 s at most) for supabase-js to drop the session itself.
    const attempt = clientSignOut(ctx).then(
      () => "ok" as const,
      (error: unknown) => {
        ctx.deps.logger.warn("auth: client sign-out failed", { error: describeError(error) });
        return "failed" as const;
      },
    );
    const outcome = await settleWithin(ctx.deps, attempt, CLIENT_SIGN_OUT_TIMEOUT_MS, TIMED_OUT);
    if (outcome === TIMED_OUT) ctx.deps.logger.warn("auth: client sign-out timed out", { limitMs: CLIENT_SIGN_OUT_TIMEOUT_MS });
  }
  redirectToLogin(ctx, () => ctx.setState({ signingOut: false, authProcessing: false }));
  return mode;
}
