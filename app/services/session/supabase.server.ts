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
      // SPEC §9 fixes path /, SameSite lax, 400 days (@supabase/ssr's defaults); Secure over HTTPS only,
      // as browsers drop Secure cookies set over plain http.
      cookieOptions: { name: AUTH_COOKIE_NAME, secure: target.secureCookies },
      cookies: {
        getAll: () =>
          withoutUnusableSession(
            parseCookieHeader(request.headers.get("cookie") ?? "").map((c) => ({ name: c.name, value: c.value ?? "" })),
          ),
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

type Cookie = { name: string; value: string };

/**
 * The session cookie is the client's to write. @supabase/ssr ignores one that is not base64url or
 * JSON, but a JSON value of the wrong shape (`"user": "x"`) makes supabase-js throw a TypeError:
 * a 500 on every page. Anything but a session's shape is dropped here, read as signed out.
 */
export function withoutUnusableSession(cookies: Cookie[]): Cookie[] {
  const isSessionPart = (name: string) => name === AUTH_COOKIE_NAME || /^\d+$/.test(name.slice(AUTH_COOKIE_NAME.length + 1));
  const parts = cookies.filter((c) => c.name.startsWith(AUTH_COOKIE_NAME) && isSessionPart(c.name));
  if (parts.length === 0) return cookies;
  const whole = parts.find((c) => c.name === AUTH_COOKIE_NAME)?.value ?? joinChunks(cookies);
  return isUsableSession(whole) ? cookies : cookies.filter((c) => !parts.includes(c));
}

/** Chunks "<name>.0", "<name>.1"… joined in order, as @supabase/ssr reads them (up to the first gap). */
function joinChunks(cookies: Cookie[]): string {
  let value = "";
  for (let i = 0; ; i++) {
    const chunk = cookies.find((c) => c.name === `${AUTH_COOKIE_NAME}.${i}`)?.value;
    if (!chunk) return value;
    value += chunk;
  }
}

function isUsableSession(raw: string): boolean {
  let session: unknown;
  try {
    const json = raw.startsWith("base64-") ? Buffer.from(raw.slice("base64-".length), "base64url").toString("utf8") : raw;
    session = JSON.parse(json);
  } catch {
    return false;
  }
  if (typeof session !== "object" || session === null || Array.isArray(session)) return false;
  const { access_token, refresh_token, expires_at, user } = session as Record<string, unknown>;
  return (
    typeof access_token === "string" &&
    typeof refresh_token === "string" &&
    (expires_at === undefined || expires_at === null || typeof expires_at === "number") &&
    (user === undefined || user === null || (typeof user === "object" && !Array.isArray(user)))
  );
}
