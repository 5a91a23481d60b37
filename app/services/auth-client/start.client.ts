import i18next from "i18next";
import { showSessionExpiredToast } from "#app/components/toasts.tsx";
import { type AuthStore, createAuthStore } from "./auth-store.ts";
import { getBrowserSupabase } from "./browser-client.ts";
import { AUTH_DEBUG_STORAGE_KEY } from "./constants.ts";
import type { AuthHooks, AuthStoreDeps, StorageLike } from "./types.ts";
import { provideAuthStore } from "./use-auth-store.ts";

/** GET /api/public-config: what the browser may know about the auth server (never a secret key). */
export interface PublicConfig {
  supabaseUrl: string;
  supabaseAnonKey: string;
  buildId: string;
  locales: string[];
}

const PUBLIC_CONFIG_PATH = "/api/public-config";

function isPublicConfig(value: unknown): value is PublicConfig {
  if (!value || typeof value !== "object") return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.supabaseUrl === "string" &&
    v.supabaseUrl.length > 0 &&
    typeof v.supabaseAnonKey === "string" &&
    v.supabaseAnonKey.length > 0 &&
    typeof v.buildId === "string" &&
    Array.isArray(v.locales)
  );
}

async function fetchPublicConfig(): Promise<PublicConfig> {
  const res = await fetch(PUBLIC_CONFIG_PATH, { credentials: "same-origin", headers: { Accept: "application/json" } });
  if (!res.ok) throw new Error(`${PUBLIC_CONFIG_PATH}: HTTP ${res.status}`);
  const body: unknown = await res.json();
  if (!isPublicConfig(body)) throw new Error(`${PUBLIC_CONFIG_PATH}: unexpected response shape`);
  return body;
}

/** Local/session storage can throw (blocked storage, some private modes); fall back to memory then. */
function safeStorage(get: () => Storage): StorageLike {
  try {
    return get();
  } catch {
    const map = new Map<string, string>();
    return {
      get length() {
        return map.size;
      },
      key: (index) => [...map.keys()][index] ?? null,
      getItem: (key) => map.get(key) ?? null,
      setItem: (key, value) => void map.set(key, value),
      removeItem: (key) => void map.delete(key),
    };
  }
}

function browserDeps(config: PublicConfig, hooks: AuthHooks): AuthStoreDeps {
  const local = safeStorage(() => window.localStorage);
  return {
    ...hooks,
    auth: getBrowserSupabase(config).auth,
    now: () => Date.now(),
    setTimeout: (callback, ms) => window.setTimeout(callback, ms),
    clearTimeout: (handle) => window.clearTimeout(handle as number),
    document,
    location: window.location,
    storage: { local, session: safeStorage(() => window.sessionStorage) },
    cookies: {
      read: () => document.cookie,
      // Same path as every cookie the app and @supabase/ssr set (SPEC §9: path /).
      remove: (name) => {
        // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from browsers we support (Firefox).
        document.cookie = `${name}=; Max-Age=0; Path=/; SameSite=Lax`;
      },
    },
    fetch: (input, init) => window.fetch(input, init),
    emit: (name, detail) => window.dispatchEvent(new CustomEvent(name, { detail })),
    showToast: showSessionExpiredToast,
    t: (key) => i18next.t(key),
    logger: {
      warn: (message, details) => console.warn(message, details ?? ""),
      error: (message, details) => console.error(message, details ?? ""),
    },
    debug: () => local.getItem(AUTH_DEBUG_STORAGE_KEY) === "1",
  };
}

let started: Promise<AuthStore> | null = null;

/**
 * Starts the browser side of sessions once per page: public config → supabase-js client → store,
 * listening to auth events and tab visibility (SPEC §4). root.tsx calls it after hydration through a
 * dynamic import, which keeps supabase-js out of every page's critical JavaScript. A failed start
 * (e.g. the config request failed) may be tried again.
 */
export function startAuthClient(hooks: AuthHooks = {}): Promise<AuthStore> {
  started ??= (async () => {
    const config = await fetchPublicConfig();
    const store = createAuthStore(browserDeps(config, hooks));
    provideAuthStore(store);
    store.start();
    return store;
  })().catch((error: unknown) => {
    started = null;
    throw error;
  });
  return started;
}
