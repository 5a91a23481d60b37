import type { MiddlewareFunction } from "react-router";
import { requestInfoContext, runtimeContext } from "#app/runtime/context.ts";
import { AUTH_COOKIE_NAME, resolveAuthTarget } from "#app/services/session/auth-mode.server.ts";
import { mirrorHostedUser } from "#app/services/session/hosted-user-mirror.server.ts";
import { applySessionCookies, createRequestSupabase } from "#app/services/session/supabase.server.ts";
import { supabaseContext, userContext } from "#app/services/session/user-context.ts";

// Machine endpoints never need the visitor's session; skipping them keeps them cheap.
const SESSIONLESS = [
  /^\/api\/public-config$/,
  /^\/api\/auth\/logout$/,
  /^\/auth\/v1\//,
  /^\/_i18n\//,
  /^\/healthz$/,
  /^\/readyz$/,
  /^\/builds\//,
  /^\/api\/ping$/,
  /^\/_lang$/,
];

/**
 * Resolves who is signed in (SPEC §4, §9): one supabase-js server client per request reading the
 * session cookies, refreshing an expired access token, and the user verified by the auth server
 * (so a session revoked server-side stops working at once). Refreshed or cleared cookies are
 * written onto whatever response the route produced, redirects included.
 */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const url = new URL(request.url);
  if (SESSIONLESS.some((re) => re.test(url.pathname))) return next();
  const runtime = context.get(runtimeContext);
  const target = resolveAuthTarget(runtime, url.origin, context.get(requestInfoContext).clientIp);
  const session = createRequestSupabase(request, target);
  context.set(supabaseContext, session);
  if (request.headers.get("cookie")?.includes(AUTH_COOKIE_NAME)) {
    const { data } = await session.supabase.auth.getUser();
    if (data.user) {
      if (runtime.env.SUPABASE_URL) await mirrorHostedUser(runtime.db, data.user);
      const { data: aal } = await session.supabase.auth.mfa.getAuthenticatorAssuranceLevel();
      context.set(userContext, {
        id: data.user.id,
        email: data.user.email ?? "",
        mfaRequired: aal?.nextLevel === "aal2" && aal.currentLevel !== "aal2",
      });
    }
  }
  const response = await next();
  return applySessionCookies(response, session);
};
