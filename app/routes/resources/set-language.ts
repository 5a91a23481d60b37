import { redirect } from "react-router";
import { z } from "zod";
import { LOCALES, localeFromPath } from "#app/i18n/config.ts";
import { localeCookieHeader } from "#app/i18n/locale-cookie.server.ts";
import { secureCookies } from "#app/services/session/secure-cookies.server.ts";
import { sameOriginPath } from "#app/utils/safe-redirect.ts";
import type { Route } from "./+types/set-language";

const SetLanguageSchema = z.object({
  lng: z.enum(LOCALES),
  // Checked below against the request's origin (utils/safe-redirect.ts): only a path on this site
  // as a browser would resolve it, so no scheme, "//host", backslash, tab or newline tricks.
  redirectTo: z.string().optional(),
});

/** The language switcher: remembers the choice (SPEC §1) and returns to the page in that language. */
export function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const parsed = SetLanguageSchema.safeParse(Object.fromEntries(url.searchParams));
  const redirectTo = parsed.success ? sameOriginPath(parsed.data.redirectTo, url.origin) : null;
  if (!parsed.success || (parsed.data.redirectTo !== undefined && redirectTo === null)) {
    return Response.json({ code: "invalid_language_request", message: "Unknown language or target." }, { status: 400 });
  }
  const { lng } = parsed.data;
  const target = redirectTo && localeFromPath(redirectTo) === lng ? redirectTo : lng === "en" ? "/" : `/${lng}`;
  throw redirect(target, { headers: { "Set-Cookie": localeCookieHeader(lng, secureCookies(request, context)) } });
}

export { action } from "./method-not-allowed.ts";
