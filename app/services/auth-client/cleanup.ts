import {
  LEGACY_ORG_STORAGE_KEYS,
  MIGRATION_KEY_PATTERNS,
  MIGRATION_STATUS_KEY,
  MIGRATION_VERSION,
  ORG_COOKIE_NAME,
  ORG_STORAGE_KEY,
  SIGN_OUT_CLEARED_KEYS,
  SIGN_OUT_CLEARED_PREFIXES,
  SIGN_OUT_CLEARED_SUBSTRING,
} from "./constants.ts";
import { describeError } from "./timing.ts";
import type { AuthStoreDeps, MigrationRecord, StorageLike } from "./types.ts";

type CleanupDeps = Pick<AuthStoreDeps, "storage" | "cookies">;

/** Keys are collected first: removing while walking key(i) would skip entries. */
function storageKeys(storage: StorageLike): string[] {
  const keys: string[] = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key !== null) keys.push(key);
  }
  return keys;
}

export function cookieNames(raw: string): string[] {
  return raw
    .split(";")
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => {
      const eq = part.indexOf("=");
      return eq === -1 ? part : part.slice(0, eq);
    });
}

/** SPEC §4 Sign-out: names that begin with sb- or lswt-, or contain supabase. */
export function isAuthStorageName(name: string): boolean {
  return SIGN_OUT_CLEARED_PREFIXES.some((prefix) => name.startsWith(prefix)) || name.includes(SIGN_OUT_CLEARED_SUBSTRING);
}

/** Removes matching keys from a storage, counting each as it goes (so a failure midway still counts right). */
function removeMatching(storage: StorageLike, matches: (key: string) => boolean, tally = { count: 0 }): void {
  for (const key of storageKeys(storage)) {
    if (!matches(key)) continue;
    storage.removeItem(key);
    tally.count++;
  }
}

/** SPEC §4 Session events (SIGNED_OUT): the stored organisation key and the organisation cookie. */
export function clearOrgStorage(deps: CleanupDeps): void {
  deps.storage.local.removeItem(ORG_STORAGE_KEY);
  if (cookieNames(deps.cookies.read()).includes(ORG_COOKIE_NAME)) deps.cookies.remove(ORG_COOKIE_NAME);
}

/**
 * SPEC §4 Sign-out, local cleanup: the user and cached data keys, every sb-/lswt-/…supabase… item, and
 * the organisation id — from local storage, session storage and cookies. Nothing else is touched
 * (the language cookie, the migration record, UI preferences stay).
 */
export function clearLocalData(deps: CleanupDeps): void {
  const matches = (key: string) => SIGN_OUT_CLEARED_KEYS.includes(key) || key === ORG_STORAGE_KEY || isAuthStorageName(key);
  removeMatching(deps.storage.local, matches);
  removeMatching(deps.storage.session, matches);
  for (const name of cookieNames(deps.cookies.read())) {
    if (name === ORG_COOKIE_NAME || isAuthStorageName(name)) deps.cookies.remove(name);
  }
}

/** SPEC §4 SIGNED_IN background task: organisation data kept before the org id moved into the JWT. */
export function clearLegacyOrgData(deps: CleanupDeps): void {
  for (const key of LEGACY_ORG_STORAGE_KEYS) deps.storage.local.removeItem(key);
}

export function readMigrationRecord(storage: StorageLike): MigrationRecord | null {
  const raw = storage.getItem(MIGRATION_STATUS_KEY);
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === "object" && "status" in parsed && "version" in parsed ? (parsed as MigrationRecord) : null;
  } catch {
    return null;
  }
}

/**
 * SPEC §4 Migration cleanup, once per version: old recording/offline keys and legacy sb-*-auth-token
 * items in local and session storage, and the organisation id cookie. The session cookie itself
 * (sb-murmur-auth-token) is never touched here — this runs right after sign-in. The result is written
 * as a SPEC §3 migration status record. A failed run is recorded and tried again on the next sign-in
 * (only a success marks the version done), so a transient storage error does not leave stale keys.
 */
export function runMigrationCleanup(deps: CleanupDeps & Pick<AuthStoreDeps, "now" | "logger">): MigrationRecord | null {
  const previous = readMigrationRecord(deps.storage.local);
  if (previous?.version === MIGRATION_VERSION && previous.status === "success") return null;
  const cleaned = { count: 0 };
  let record: MigrationRecord;
  try {
    const matches = (key: string) => MIGRATION_KEY_PATTERNS.some((pattern) => pattern.test(key));
    removeMatching(deps.storage.local, matches, cleaned);
    removeMatching(deps.storage.session, matches, cleaned);
    if (cookieNames(deps.cookies.read()).includes(ORG_COOKIE_NAME)) {
      deps.cookies.remove(ORG_COOKIE_NAME);
      cleaned.count++;
    }
    record = { status: "success", version: MIGRATION_VERSION, timestamp: deps.now(), cleanedItemsCount: cleaned.count };
  } catch (error) {
    record = {
      status: "failed",
      version: MIGRATION_VERSION,
      timestamp: deps.now(),
      cleanedItemsCount: cleaned.count,
      error: describeError(error),
      ...(error instanceof Error && error.stack ? { stack: error.stack } : {}),
    };
    deps.logger.error("auth: migration cleanup failed", { error: record.error, version: MIGRATION_VERSION });
  }
  try {
    deps.storage.local.setItem(MIGRATION_STATUS_KEY, JSON.stringify(record));
  } catch (error) {
    deps.logger.error("auth: migration status could not be saved", { error: describeError(error) });
  }
  return record;
}
