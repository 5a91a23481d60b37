import { AUTH_COOKIE_NAME, type AuthTarget } from "./auth-mode.server.ts";

// @supabase/ssr splits a large session over NAME, NAME.0 … NAME.4 (SPEC §9: up to 5 extra chunks).
const COOKIE_NAMES = [AUTH_COOKIE_NAME, ...Array.from({ length: 6 }, (_, i) => `${AUTH_COOKIE_NAME}.${i}`)];

export interface LogoutResult {
  ok: boolean;
  status: number;
  upstreamStatus: number | null;
}

/**
 * SPEC §7 POST /api/auth/logout: revokes the session behind a bearer access token at the auth
 * server (embedded or hosted). A token that is already invalid counts as logged out.
 */
export async function revokeSession(target: AuthTarget, accessToken: string | null): Promise<LogoutResult> {
  if (!accessToken) return { ok: false, status: 401, upstreamStatus: null };
  const res = await target.fetch(`${target.url}/auth/v1/logout?scope=local`, {
    method: "POST",
    headers: { Authorization: `Bearer ${accessToken}`, apikey: target.anonKey },
  });
  const tolerated = [401, 403, 404].includes(res.status);
  return { ok: res.ok || tolerated, status: res.ok || tolerated ? 200 : 502, upstreamStatus: res.status };
}

/** Set-Cookie values that expire every session cookie chunk. */
export function expiredSessionCookies(): string[] {
  return COOKIE_NAMES.map((name) => `${name}=; Path=/; Max-Age=0; SameSite=Lax`);
}
