import { createServerClient, parseCookieHeader, serializeCookieHeader } from "@supabase/ssr";
import type { SupabaseClient } from "@supabase/supabase-js";
import { AUTH_COOKIE_NAME, type AuthTarget } from "./auth-mode.server.ts";

export interface RequestSupabase {
  supabase: SupabaseClient;
  /** Set-Cookie values the client produced (refreshed or cleared session); forward them on the response. */
  setCookies: string[];
  /** Cache headers @supabase/ssr asks for when it sets auth cookies. */
  headers: Record<string, string>;
}

/**
 * One supabase-js server client per request, reading and writing the session cookies (SPEC §9).
 * Created on first use: most anonymous page views never need it, and building one is not free.
 */
export function createRequestSupabase(request: Request, target: AuthTarget): RequestSupabase {
  const setCookies: string[] = [];
  const headers: Record<string, string> = {};
  let client: SupabaseClient | null = null;
  const create = () =>
    createServerClient(target.url, target.anonKey, {
      cookieOptions: { name: AUTH_COOKIE_NAME },
      cookies: {
        getAll: () => parseCookieHeader(request.headers.get("cookie") ?? "").map((c) => ({ name: c.name, value: c.value ?? "" })),
        setAll: (cookies, cacheHeaders) => {
          for (const { name, value, options } of cookies) setCookies.push(serializeCookieHeader(name, value, options));
          Object.assign(headers, cacheHeaders ?? {});
        },
      },
      global: { fetch: target.fetch },
      auth: { detectSessionInUrl: false },
    });
  return {
    get supabase() {
      client ??= create();
      return client;
    },
    setCookies,
    headers,
  };
}

/** Copies the session cookies (and cache headers) a request produced onto its response. */
export function applySessionCookies(response: Response, session: RequestSupabase): Response {
  if (session.setCookies.length === 0) return response;
  for (const cookie of session.setCookies) response.headers.append("Set-Cookie", cookie);
  for (const [key, value] of Object.entries(session.headers)) response.headers.set(key, value);
  return response;
}
