/**
 * Browser-side session constants, each with the spec section that fixes it (CONVENTIONS: constants from
 * the spec live in one module). The session-expired toast (7000 ms) and redirect delay (2000 ms) are
 * app-wide and stay in #app/utils/constants.ts; they are re-exported here so the auth client reads
 * every timing from one place without duplicating a value.
 */
export { SESSION_EXPIRED_REDIRECT_MS, SESSION_EXPIRED_TOAST_MS } from "#app/utils/constants.ts";

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;

// --- Sign-out (SPEC §4 Sign-out, §7 POST /api/auth/logout, §9 Logout) ---
/** SPEC §4 Sign-out, §9: how long the fast path waits for getSession() to hand over the access token. */
export const SIGN_OUT_TOKEN_WAIT_FAST_MS = 300;
/** SPEC §4 Sign-out, §9: the same wait on the full path. */
export const SIGN_OUT_TOKEN_WAIT_FULL_MS = 600;
/** SPEC §7, §9: POST /api/auth/logout is aborted after this long. */
export const SERVER_LOGOUT_TIMEOUT_MS = 1200;
/** SPEC §4 Sign-out, §9: the full path's fallback client sign-out (scope local) is given this long. */
export const CLIENT_SIGN_OUT_TIMEOUT_MS = 1000;
/** SPEC §4 Sign-out, §9: a last user check older than this sends sign-out down the fast path. */
export const SIGN_OUT_FAST_PATH_IDLE_MS = 120_000;
/** SPEC §4 Sign-out: the redirect to /login is tried again after this long if the page is still elsewhere. */
export const SIGN_OUT_REDIRECT_RETRY_MS = 80;
/** SPEC §7: the server logout endpoint, and its debug query (d=1). */
export const SERVER_LOGOUT_PATH = "/api/auth/logout";
/** SPEC §8: server logout answers that still mean "signed out" (the session was already gone). */
export const SERVER_LOGOUT_TOLERATED_STATUSES: readonly number[] = [401, 403, 404];

// --- Tab visibility (SPEC §4 Tab visibility, §9) ---
/** SPEC §4, §9: the session refresh on becoming visible runs at most this often. */
export const VISIBILITY_REFRESH_DEBOUNCE_MS = 1500;
/** SPEC §4, §9: a visibility change this soon after the previous one is ignored by the second handler. */
export const VISIBILITY_IGNORE_WINDOW_MS = 2000;
/** SPEC §4, §9: away longer than this with no recording active → reload. */
export const RELOAD_AFTER_AWAY_MS = 5 * MINUTE_MS;
/** SPEC §4, §9: away longer than this while a recording is active → reload. */
export const RELOAD_AFTER_AWAY_RECORDING_MS = 30 * MINUTE_MS;
/** SPEC §7: the transcribing page's reconnect check (HEAD, no cache). */
export const PING_PATH = "/api/ping";
/** SPEC §4: window events fired after a visible-again refresh and on the transcribing page's reconnect. */
export const REFRESHED_DATA_EVENT = "murmur:refreshed-data";
export const RECONNECT_EVENT = "murmur:reconnect";

// --- Auth errors and failed logins (SPEC §3 Auth store, §4 Failed logins, §8, §9) ---
/** SPEC §3, §8: the auth store keeps the last 5 errors. */
export const AUTH_ERRORS_KEPT = 5;
/** SPEC §9: "recent" auth errors are those of the last 5 minutes. */
export const RECENT_AUTH_ERRORS_WINDOW_MS = 5 * MINUTE_MS;
/** SPEC §4 Failed logins, §9: more than this many failures logs a security concern. */
export const FAILED_LOGIN_ALERT_THRESHOLD = 3;
/** SPEC §8: auth error contexts that are reported to the error store (severity high). */
export const REPORTED_AUTH_ERROR_CONTEXTS: readonly string[] = ["signIn", "session_expired"];

// --- Storage, cookies and local cleanup (SPEC §3, §4 Sign-out, §4 Session events) ---
/** SPEC §9: must equal AUTH_COOKIE_NAME in app/services/session/auth-mode.server.ts (a test checks it). */
export const BROWSER_AUTH_COOKIE_NAME = "sb-murmur-auth-token";
/** SPEC §9: session cookie max age, 400 days, in seconds. */
export const AUTH_COOKIE_MAX_AGE_S = 400 * 24 * 60 * 60;
/** SPEC §3 Organisation store: the current organisation id kept client-side (local storage and cookie). */
export const ORG_STORAGE_KEY = "murmur-org";
export const ORG_COOKIE_NAME = "murmur-org";
/** SPEC §4 Sign-out: the user and cached data keys removed from local and session storage. */
export const SIGN_OUT_CLEARED_KEYS: readonly string[] = [
  "user",
  "recentClaims",
  "claimsToday",
  "billingData",
  "totalClaims",
  "recentTranscriptions",
  "chartData",
  "customerData",
  "billingStats",
  "currentPlan",
];
/** SPEC §4 Sign-out: storage items and cookies whose names begin with these are removed. */
export const SIGN_OUT_CLEARED_PREFIXES: readonly string[] = ["sb-", "lswt-"];
/** SPEC §4 Sign-out: …or whose names contain this. */
export const SIGN_OUT_CLEARED_SUBSTRING = "supabase";
/**
 * SPEC §4 Session events: SIGNED_IN "clears legacy organisation data" but the spec does not name the
 * keys. These are the pre-2.0 (before org id moved into the JWT) names we assume; see the report/ADR.
 */
export const LEGACY_ORG_STORAGE_KEYS: readonly string[] = ["currentOrgId", "currentOrganization", "organizations"];

// --- Migration cleanup (SPEC §3 Migration status record, §4 Migration cleanup) ---
/** SPEC §4: the cleanup runs once for this version. */
export const MIGRATION_VERSION = "2.0.0-jwt-org-context";
/** SPEC §3, §4: where the migration status record is kept (local storage). */
export const MIGRATION_STATUS_KEY = "murmur-migration";
/** SPEC §4: old recording and offline keys (finalized_recording_*, …) and the legacy sb-*-auth-token keys. */
export const MIGRATION_KEY_PATTERNS: readonly RegExp[] = [
  /^finalized_recording_/,
  /^failed_save_/,
  /^offline_transcription_/,
  /^pending_save_/,
  /^sb-.+-auth-token$/,
];

/** Set to "1" in local storage to call the server logout with ?d=1 (SPEC §7 debug mode). */
export const AUTH_DEBUG_STORAGE_KEY = "murmur-debug-auth";
