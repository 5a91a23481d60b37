import { redirect } from "react-router";
import { localeFromPath, localizePath } from "#app/i18n/config.ts";
import { completeEmailLink } from "#app/services/session/account.server.ts";
import { supabaseContext } from "#app/services/session/user-context.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import { safeRedirectTarget } from "#app/utils/safe-redirect.ts";
import type { Route } from "./+types/callback";

// Where confirmation, magic-link, invitation and recovery emails land after /auth/v1/verify.
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = pageUrl(request);
  const locale = localeFromPath(url.pathname);
  const supabase = context.get(supabaseContext)?.supabase;
  if (!supabase) throw new Error("session middleware missing");
  const failure = await completeEmailLink(supabase, {
    code: url.searchParams.get("code"),
    tokenHash: url.searchParams.get("token_hash"),
    type: url.searchParams.get("type"),
  });
  if (failure) throw redirect(`${localizePath("/login", locale)}?error=${encodeURIComponent(failure.code)}`);
  throw redirect(safeRedirectTarget(url.searchParams.get("next"), localizePath("/dashboard", locale), url.origin));
}

export default function Callback() {
  return null;
}
