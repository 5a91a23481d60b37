import type { Runtime } from "#app/runtime/runtime.server.ts";
import { AUTH_PREFIX, handleAuthRequest } from "#app/services/auth/api/router.server.ts";

/** Same cookie name in both modes and for every origin the site is reached at (SPEC §9). */
export const AUTH_COOKIE_NAME = "sb-murmur-auth-token";

export interface AuthTarget {
  mode: "embedded" | "hosted";
  /** What supabase-js is pointed at: Supabase's project URL, or this site (embedded /auth/v1). */
  url: string;
  anonKey: string;
  /** Server-side fetch: embedded calls are answered in-process, with no network hop. */
  fetch: typeof fetch;
  /** The site is served over HTTPS, so the session cookie is marked Secure (see isServedOverHttps). */
  secureCookies: boolean;
}

/**
 * Whether the page was requested over HTTPS: the request's own URL is https (behind a proxy that
 * terminates TLS, server.ts builds it from X-Forwarded-Proto only with TRUST_PROXY=true), or the
 * site's public address SITE_URL is https (a proxy the app does not trust still serves it over TLS).
 */
export function isServedOverHttps(requestOrigin: string, siteUrl: string | undefined): boolean {
  return requestOrigin.startsWith("https:") || Boolean(siteUrl?.startsWith("https:"));
}

/**
 * Hosted Supabase when SUPABASE_URL is set, else Murmur's embedded auth API. Nothing else in the
 * app needs to know which one it talks to.
 */
export function resolveAuthTarget(runtime: Runtime, requestOrigin: string, clientIp: string): AuthTarget {
  const { env, auth } = runtime;
  const secureCookies = isServedOverHttps(requestOrigin, env.SITE_URL);
  if (env.SUPABASE_URL) {
    return {
      mode: "hosted",
      url: env.SUPABASE_URL,
      anonKey: env.SUPABASE_ANON_KEY ?? "",
      fetch: globalThis.fetch,
      secureCookies,
    };
  }
  const inProcess: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    if (new URL(request.url).pathname.startsWith(AUTH_PREFIX)) {
      return handleAuthRequest(request, auth, { ip: clientIp, userAgent: request.headers.get("user-agent") });
    }
    return globalThis.fetch(request);
  };
  return { mode: "embedded", url: requestOrigin, anonKey: auth.keys.anonKey, fetch: inProcess, secureCookies };
}
