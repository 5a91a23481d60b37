import type { AuthState } from "./types.ts";

/** SPEC §3 Auth store before anything is known. Its own module so use-auth-store.ts stays tiny. */
export const INITIAL_AUTH_STATE: AuthState = Object.freeze({
  user: null,
  loading: true,
  authInitialized: false,
  authProcessing: false,
  lastSessionCheck: null,
  errors: [],
  loginAttempts: 0,
  lastLoginAttempt: null,
  signingOut: false,
  recovering: false,
});
