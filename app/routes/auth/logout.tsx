import { redirect } from "react-router";
import { localeFromPath, localizePath } from "#app/i18n/config.ts";
import { clearOrgCookieHeader } from "#app/services/org-context/cookie.ts";
import { supabaseContext } from "#app/services/session/user-context.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import type { Route } from "./+types/logout";

// The user menu's sign-out form (works without JavaScript): ends this session at the auth server
// and clears its cookies. With JavaScript the browser store runs SPEC §4's sign-out first.
export async function action({ request, context }: Route.ActionArgs) {
  await context.get(supabaseContext)?.supabase.auth.signOut({ scope: "local" });
  throw redirect(localizePath("/login", localeFromPath(pageUrl(request).pathname)), {
    headers: { "Set-Cookie": clearOrgCookieHeader() },
  });
}

export function loader({ request }: Route.LoaderArgs) {
  throw redirect(localizePath("/login", localeFromPath(pageUrl(request).pathname)));
}
