import { createBrowserClient } from "@supabase/ssr";
import type { SupabaseClient } from "@supabase/supabase-js";
import { AUTH_COOKIE_MAX_AGE_S, BROWSER_AUTH_COOKIE_NAME } from "./constants.ts";

export interface BrowserSupabaseConfig {
  supabaseUrl: string;
  supabaseAnonKey: string;
}

let client: SupabaseClient | null = null;

/**
 * The one supabase-js client of the page (SPEC §9 Auth client, Session cookie): PKCE, persisted session
 * in the same cookie the server reads (sb-murmur-auth-token, path /, SameSite lax, 400 days), automatic
 * refresh. Email links are completed by the server (/auth/callback, /update-password), which exchanges
 * the code before the page is sent, so the browser never handles one. Only reached through the dynamic
 * import in root.tsx, so supabase-js stays out of the pages' critical JavaScript.
 */
export function getBrowserSupabase(config: BrowserSupabaseConfig): SupabaseClient {
  client ??= createBrowserClient(config.supabaseUrl, config.supabaseAnonKey, {
    isSingleton: true,
    // Issue 10: the browser rewrites the session cookie on every refresh; over HTTPS it must stay
    // Secure like the one the server sets.
    cookieOptions: {
      name: BROWSER_AUTH_COOKIE_NAME,
      path: "/",
      sameSite: "lax",
      maxAge: AUTH_COOKIE_MAX_AGE_S,
      secure: typeof location !== "undefined" && location.protocol === "https:",
    },
    auth: { flowType: "pkce", autoRefreshToken: true, persistSession: true, detectSessionInUrl: false },
  });
  return client;
}
