/** Product constants, each with the spec section that fixes it. */
export const PRODUCT_NAME = "Murmur AI Scribe"; // SPEC §1 page title
export const SESSION_EXPIRED_TOAST_MS = 7000; // SPEC §2 Global UI, §9
export const SESSION_EXPIRED_REDIRECT_MS = 2000; // SPEC §4 Session expiry, §9
export const RECORDING_TOAST_DEFAULT_MS = 5000; // SPEC §2 Global UI, §9
export const ERROR_STORE_MAX_ENTRIES = 20; // SPEC §8
export const VERSION_POLL_INTERVAL_MS = 5 * 60 * 1000; // SPEC §9 leaves it open: five minutes
export const SENTRY_TRACES_SAMPLE_RATE = 0.1; // SPEC §9
export const SENTRY_REPLAYS_SESSION_SAMPLE_RATE = 0.1; // SPEC §9
export const SENTRY_REPLAYS_ON_ERROR_SAMPLE_RATE = 1.0; // SPEC §9

/** The window event that opens the recording toast (SPEC §2): detail { message, duration? }. */
export const RECORDING_TOAST_EVENT = "murmur:recording-toast";
/** Fired when client navigation fails, to reveal the fallback banner (SPEC §2). */
export const NAVIGATION_FAILED_EVENT = "murmur:navigation-failed";
