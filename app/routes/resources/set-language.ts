import { redirect } from "react-router";
import { z } from "zod";
import { LOCALES, localeFromPath } from "#app/i18n/config.ts";
import { localeCookieHeader } from "#app/i18n/locale-cookie.server.ts";
import type { Route } from "./+types/set-language";

const SetLanguageSchema = z.object({
  lng: z.enum(LOCALES),
  // Only a path on this site: no scheme, no "//host", no backslash tricks.
  redirectTo: z
    .string()
    .max(2048)
    .regex(/^\/(?![/\\])/)
    .optional(),
});

/** The language switcher: remembers the choice (SPEC §1) and returns to the page in that language. */
export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const parsed = SetLanguageSchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) {
    return Response.json({ code: "invalid_language_request", message: "Unknown language or target." }, { status: 400 });
  }
  const { lng, redirectTo } = parsed.data;
  const target = redirectTo && localeFromPath(redirectTo) === lng ? redirectTo : lng === "en" ? "/" : `/${lng}`;
  throw redirect(target, { headers: { "Set-Cookie": localeCookieHeader(lng) } });
}

export { action } from "./method-not-allowed.ts";
