import type { RouterContextProvider } from "react-router";
import { requestInfoContext, runtimeContext } from "#app/runtime/context.ts";
import { bearerToken } from "#app/services/auth/api/http.server.ts";
import { requireApiSession } from "#app/services/auth/bearer.server.ts";
import { AppError } from "#app/utils/app-error.ts";
import { resolveAuthTarget } from "./auth-mode.server.ts";
import { mirrorHostedUser } from "./hosted-user-mirror.server.ts";
import { userContext } from "./user-context.ts";

export const notAuthenticated = () => new AppError(401, "not_authenticated", "Sign in to use this API");

/**
 * The user behind an API request (issue 4 "API": bearer token or session cookie). A bearer access
 * token wins when present: with the embedded auth server its signature, expiry and issuer are
 * checked with the embedded keys and its session must still exist (requireApiSession, so a signed-out
 * token stops at once); with hosted Supabase the auth server is asked. Without a bearer token, the
 * session cookie's user that the session middleware resolved. A session that still owes its second
 * factor (aal1 with a verified factor) is refused like the pages refuse it. Throws 401 not_authenticated.
 */
export async function requireApiUser(request: Request, context: Readonly<RouterContextProvider>): Promise<string> {
  const token = bearerToken(request);
  if (token) return userFromBearer(request, context, token);
  if (request.headers.has("authorization")) throw notAuthenticated();
  const user = context.get(userContext);
  if (user && !user.mfaRequired) return user.id;
  throw notAuthenticated();
}

async function userFromBearer(request: Request, context: Readonly<RouterContextProvider>, token: string): Promise<string> {
  const runtime = context.get(runtimeContext);
  const clientIp = context.get(requestInfoContext).clientIp;
  if (runtime.env.SUPABASE_URL) {
    const target = resolveAuthTarget(runtime, new URL(request.url).origin, clientIp);
    const res = await target.fetch(`${target.url}/auth/v1/user`, {
      headers: { apikey: target.anonKey, authorization: `Bearer ${token}` },
    });
    if (!res.ok) throw notAuthenticated();
    const body = (await res.json()) as { id?: unknown; email?: string; user_metadata?: Record<string, unknown> };
    if (typeof body.id !== "string") throw notAuthenticated();
    await mirrorHostedUser(runtime.db, { id: body.id, email: body.email, user_metadata: body.user_metadata });
    return body.id;
  }
  const auth = runtime.auth;
  let caller: Awaited<ReturnType<typeof requireApiSession>>;
  try {
    const url = new URL(request.url);
    caller = await requireApiSession({
      request,
      url,
      path: url.pathname,
      params: {},
      auth,
      ip: clientIp,
      userAgent: request.headers.get("user-agent"),
    });
  } catch {
    throw notAuthenticated();
  }
  if (caller.claims.aal !== "aal2" && caller.hasVerifiedFactor) throw notAuthenticated();
  return caller.userId;
}
