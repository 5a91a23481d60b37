import { isLocale } from "#app/i18n/config.ts";
import { getLocaleMessages } from "#app/i18n/messages.server.ts";
import type { Route } from "./+types/i18n-messages";

// SPEC §7: a locale's messages, all namespaces. Unknown locales are a 404; an ETag makes reloads cheap.
export function loader({ params, request }: Route.LoaderArgs) {
  if (!isLocale(params.locale)) {
    return Response.json({ code: "unknown_locale", message: `Unknown locale: ${params.locale}` }, { status: 404 });
  }
  const { body, etag } = getLocaleMessages(params.locale);
  const headers = {
    ETag: etag,
    "Cache-Control": "public, max-age=300, must-revalidate",
    "Content-Type": "application/json; charset=utf-8",
  };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return new Response(body, { headers });
}

export { action } from "./method-not-allowed.ts";
