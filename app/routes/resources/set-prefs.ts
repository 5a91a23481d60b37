import { redirect } from "react-router";
import { z } from "zod";
import { prefCookieHeader, SIDEBAR_COOKIE, THEME_COOKIE, THEMES } from "#app/services/prefs/prefs.ts";
import { secureCookies } from "#app/services/session/secure-cookies.server.ts";
import { readForm } from "#app/utils/read-form.server.ts";
import { MAX_REDIRECT_TARGET_LENGTH, safeRedirectTarget } from "#app/utils/safe-redirect.ts";
import type { Route } from "./+types/set-prefs";
import { methodNotAllowed } from "./method-not-allowed.ts";

export { loader } from "./method-not-allowed.ts";

const PrefsSchema = z.object({
  sidebar: z.enum(["collapsed", "expanded"]).optional(),
  theme: z.enum(THEMES).optional(),
  // Checked for staying on this site by safeRedirectTarget below (issue 10: a regex let "/\t/evil" through).
  redirectTo: z.string().max(MAX_REDIRECT_TARGET_LENGTH).optional(),
});

/** Sidebar and theme preferences (issue 11): a plain form post, so it works without JavaScript. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const parsed = PrefsSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) {
    return Response.json({ code: "invalid_preferences", message: "Unknown preference." }, { status: 400 });
  }
  const { sidebar, theme, redirectTo } = parsed.data;
  const secure = secureCookies(request, context);
  const headers = new Headers();
  if (sidebar) headers.append("Set-Cookie", prefCookieHeader(SIDEBAR_COOKIE, sidebar, secure));
  if (theme) headers.append("Set-Cookie", prefCookieHeader(THEME_COOKIE, theme, secure));
  throw redirect(safeRedirectTarget(redirectTo, "/dashboard", new URL(request.url).origin), { status: 303, headers });
}
