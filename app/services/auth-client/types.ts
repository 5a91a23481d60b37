import type { AuthChangeEvent } from "@supabase/supabase-js";
import type { ErrorStore } from "#app/utils/error-store.ts";

/** SPEC §3 User: what the store needs of supabase-js's User (the real object is kept as is). */
export interface AuthUser {
  id: string;
  email?: string | undefined;
}

/** SPEC §3 Session, reduced to what the browser store reads. */
export interface AuthSessionLike {
  access_token: string;
  user: AuthUser;
}

export type AuthEvent = AuthChangeEvent;

/**
 * The part of supabase-js's auth client (SupabaseAuthClient / GoTrueClient) the store uses, typed
 * structurally so tests can pass small fakes. start.client.ts hands the real `supabase.auth` to it,
 * so `tsc` proves the real client fits.
 */
export interface AuthPort {
  onAuthStateChange(callback: (event: AuthEvent, session: AuthSessionLike | null) => void): {
    data: { subscription: { unsubscribe(): void } };
  };
  getUser(): Promise<{ data: { user: AuthUser | null }; error: unknown }>;
  getSession(): Promise<{ data: { session: AuthSessionLike | null }; error: unknown }>;
  refreshSession(): Promise<{ data: { session: AuthSessionLike | null }; error: unknown }>;
  signOut(options?: { scope?: "global" | "local" | "others" }): Promise<{ error: unknown }>;
  startAutoRefresh(): Promise<void>;
  stopAutoRefresh(): Promise<void>;
}

/** The Storage methods the cleanup uses (window.localStorage / sessionStorage fit). */
export interface StorageLike {
  readonly length: number;
  key(index: number): string | null;
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export type TimerHandle = unknown;

/** Organisation and recorder hooks, which other features register (possibly after start). */
export interface AuthHooks {
  /** SPEC §4 SIGNED_IN / INITIAL_SESSION background task: load the organisation. */
  onOrganisationLoad?(): void | Promise<void>;
  /** SPEC §4 SIGNED_OUT: clear organisation id and list, request header (in-memory org state). */
  onOrganisationClear?(): void;
  /** SPEC §4 Tab visibility: is a recording active? */
  isRecording?(): boolean;
  /** Are recorded chunks still waiting for the server? Sign-out asks first (issue 5). */
  hasUnsentAudio?(): boolean;
}

/** Everything the store touches in the browser, injected so tests can run it in Node with fake timers. */
export interface AuthStoreDeps extends AuthHooks {
  auth: AuthPort;
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  document: {
    readonly visibilityState: DocumentVisibilityState;
    addEventListener(type: "visibilitychange", listener: () => void): void;
  };
  location: { readonly pathname: string; assign(url: string): void; replace(url: string): void; reload(): void };
  storage: { local: StorageLike; session: StorageLike };
  /** read() returns document.cookie-style "a=1; b=2"; remove(name) expires one cookie on path /. */
  cookies: { read(): string; remove(name: string): void };
  fetch: typeof fetch;
  /** Dispatches a window event (CustomEvent) by name. */
  emit(name: string, detail?: unknown): void;
  showToast(message: string): void;
  t(key: string): string;
  logger: {
    warn(message: string, details?: Record<string, unknown>): void;
    error(message: string, details?: Record<string, unknown>): void;
  };
  /** SPEC §8 error store; defaults to the app-wide one. */
  errorStore?: Pick<ErrorStore, "add">;
  /** SPEC §7: debug mode adds ?d=1 to the server logout. */
  debug?(): boolean;
}

/** SPEC §3 Auth error entry. */
export interface AuthErrorEntry {
  message: string;
  code: string | null;
  status: number | null;
  timestamp: number;
  context: string;
}

export interface AuthErrorInput {
  message: string;
  code?: string | null | undefined;
  status?: number | null | undefined;
  context: string;
}

/** SPEC §3 Auth store, plus the sign-out and password-recovery flags the UI reacts to. */
export interface AuthState {
  user: AuthUser | null;
  loading: boolean;
  authInitialized: boolean;
  authProcessing: boolean;
  lastSessionCheck: number | null;
  errors: readonly AuthErrorEntry[];
  loginAttempts: number;
  lastLoginAttempt: number | null;
  signingOut: boolean;
  /** SPEC §4: a PASSWORD_RECOVERY event arrived; the update-password page reads it. */
  recovering: boolean;
}

/** SPEC §3 Migration status record. */
export interface MigrationRecord {
  status: "success" | "failed";
  version: string;
  timestamp: number;
  cleanedItemsCount: number;
  error?: string;
  stack?: string;
}

export type SignOutMode = "fast" | "full";

/** What the store's parts share: the dependencies and the state. */
export interface StoreContext {
  deps: AuthStoreDeps;
  /** Starts as the deps' hooks; setHooks() may replace them later (e.g. the recorder registers itself). */
  hooks: AuthHooks;
  getState(): AuthState;
  setState(patch: Partial<AuthState>): void;
  /** SPEC §4 Session expiry: toast, then the sign-in page. Set by the store once it exists. */
  expireSession?(reason: unknown): void;
}
