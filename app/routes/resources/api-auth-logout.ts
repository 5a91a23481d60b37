import { requestInfoContext, runtimeContext } from "#app/runtime/context.ts";
import { bearerToken } from "#app/services/auth/api/http.server.ts";
import { clearOrgCookieHeader } from "#app/services/org-context/cookie.ts";
import { resolveAuthTarget } from "#app/services/session/auth-mode.server.ts";
import { expiredSessionCookies, revokeSession } from "#app/services/session/logout.server.ts";
import type { Route } from "./+types/api-auth-logout";

import { methodNotAllowed } from "./method-not-allowed.ts";

export { loader } from "./method-not-allowed.ts";

// SPEC §7: the browser gives this 1200 ms and signs out locally whatever happens.
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const url = new URL(request.url);
  const target = resolveAuthTarget(context.get(runtimeContext), url.origin, context.get(requestInfoContext).clientIp);
  const result = await revokeSession(target, bearerToken(request));
  const headers = new Headers({ "Cache-Control": "no-store" });
  for (const cookie of expiredSessionCookies()) headers.append("Set-Cookie", cookie);
  // SPEC §4 Sign-out: the organisation cookie goes with the session.
  headers.append("Set-Cookie", clearOrgCookieHeader());
  const body =
    result.status === 401 ? { ok: false, code: "no_authorization", message: "Missing bearer token" } : { ok: result.ok };
  const debug = url.searchParams.get("d") === "1" ? { upstreamStatus: result.upstreamStatus } : {};
  return Response.json({ ...body, ...debug }, { status: result.status, headers });
}
