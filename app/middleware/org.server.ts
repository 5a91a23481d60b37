import { data, type MiddlewareFunction } from "react-router";
import { localeFromPath } from "#app/i18n/config.ts";
import { requestInfoContext, runtimeContext } from "#app/runtime/context.ts";
import { ORG_SWITCH_PARAM } from "#app/services/org-context/constants.ts";
import { ORG_COOKIE, orgCookieHeader, readOrgCookie } from "#app/services/org-context/cookie.ts";
import { type OrgBootstrapFailure, orgContext } from "#app/services/org-context/current-org.ts";
import { resolveCurrentOrg } from "#app/services/org-context/resolve.server.ts";
import { requireUser } from "#app/services/session/guards.server.ts";
import { assertValidPage, optionalIdParam } from "#app/services/session/page-validity.server.ts";
import { secureCookies } from "#app/services/session/secure-cookies.server.ts";
import { pageUrl } from "#app/utils/page-url.ts";

/**
 * The app layout's middleware (issue 4 "Bootstrap and current organisation"): the server decides
 * which organisation a signed-in page works in. `?org=<id>` (a deep link, or a page redirecting to a
 * resource of another of the user's organisations) wins, then the `murmur-org` cookie, then the
 * personal organisation, then the first — each only if the user is still a member. The choice is
 * written back to the cookie, and `{ user, org, role }` goes into the request context.
 */
export const orgMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const user = requireUser(context, request);
  const runtime = context.get(runtimeContext);
  const url = pageUrl(request);
  const requested = optionalIdParam(url, ORG_SWITCH_PARAM)?.toLowerCase() ?? null;
  const remembered = readOrgCookie(request.headers.get("cookie"));
  const result = await resolveCurrentOrg({
    db: runtime.db,
    userId: user.id,
    locale: localeFromPath(url.pathname),
    preferred: [requested, remembered],
    timeoutMs: runtime.env.ORG_BOOTSTRAP_TIMEOUT_MS,
    meta: { ip: context.get(requestInfoContext).clientIp, userAgent: request.headers.get("user-agent") },
    log: (message, error) => runtime.logger.error({ err: error }, message),
  });
  if (result.status === "error") {
    throw data({ orgBootstrap: result.code, message: result.message } satisfies OrgBootstrapFailure, { status: 503 });
  }
  // Another tenant's id, or one the user has left: the same 404 as a malformed id.
  if (requested) assertValidPage(result.current.id === requested);
  const org = result.current;
  context.set(orgContext, {
    user,
    org,
    role: org.role,
    orgs: result.orgs,
    switchedFrom: requested && requested !== remembered ? (remembered ?? "") : null,
  });
  const response = await next();
  const alreadySet = response.headers.getSetCookie().some((cookie) => cookie.startsWith(`${ORG_COOKIE}=`));
  if (org.id !== remembered && !alreadySet) {
    response.headers.append("Set-Cookie", orgCookieHeader(org.id, secureCookies(request, context)));
  }
  return response;
};
