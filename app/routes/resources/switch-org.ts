import { redirect } from "react-router";
import { z } from "zod";
import { runtimeContext } from "#app/runtime/context.ts";
import { clearOrgCookieHeader, orgCookieHeader } from "#app/services/org-context/cookie.ts";
import { switchableOrg } from "#app/services/org-context/switch.server.ts";
import { secureCookies } from "#app/services/session/secure-cookies.server.ts";
import { readForm } from "#app/utils/read-form.server.ts";
import { safeRedirectTarget } from "#app/utils/safe-redirect.ts";
import type { Route } from "./+types/switch-org";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { handleApi, serviceArgs, validationFailed } from "./org-api.server.ts";

export { loader } from "./method-not-allowed.ts";

const SwitchSchema = z.union([
  z.object({ intent: z.literal("switch"), org_id: z.string().trim().max(64), redirectTo: z.string().max(2048).optional() }),
  z.object({ intent: z.literal("retry"), redirectTo: z.string().max(2048).optional() }),
]);

/**
 * The organisation switcher (issue 4): a plain form post, so it works without JavaScript and the
 * whole page reloads in the new organisation. `retry` is SPEC §4's manual retry: forget the current
 * organisation so the next page bootstraps again. The server checks membership; the cookie is a hint.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return handleApi(async () => {
    const args = await serviceArgs(request, context);
    const parsed = SwitchSchema.safeParse(Object.fromEntries(await readForm(request)));
    if (!parsed.success) throw validationFailed("intent: expected switch with org_id, or retry");
    const input = parsed.data;
    const requestUrl = new URL(request.url);
    const back = withoutOrgParam(safeRedirectTarget(input.redirectTo, "/dashboard", requestUrl.origin));
    const secure = secureCookies(request, context);
    if (input.intent === "retry") throw redirect(back, { status: 303, headers: { "Set-Cookie": clearOrgCookieHeader() } });
    const org = await switchableOrg(args, input.org_id, context.get(runtimeContext).logger);
    throw redirect(back, { status: 303, headers: { "Set-Cookie": orgCookieHeader(org.id, secure) } });
  });
}

/** A deep link's `org` parameter must not pull the user back into the organisation they just left. */
function withoutOrgParam(target: string): string {
  const url = new URL(target, "http://x");
  url.searchParams.delete("org");
  return url.pathname + url.search;
}
