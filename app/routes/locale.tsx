import { data, Outlet, redirect } from "react-router";
import { DEFAULT_LOCALE, isLocale, stripLocale } from "#app/i18n/config.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import { safeRedirectTarget } from "#app/utils/safe-redirect.ts";
import type { Route } from "./+types/locale";

/**
 * The optional language segment: none = English, "fr" or "es" = that language, "en" redirects
 * to the unprefixed page, anything else is a 404 (SPEC §2, CONVENTIONS i18n).
 */
const localeGuard: Route.MiddlewareFunction = ({ request, params }) => {
  const lang = params.lang;
  if (lang === undefined) return;
  if (lang === DEFAULT_LOCALE) {
    const url = pageUrl(request);
    // "/en//evil.example" strips to "//evil.example", which a browser reads as another host.
    const bare = stripLocale(url.pathname).replace(/^\/{2,}/, "/");
    throw redirect(safeRedirectTarget(bare + url.search, "/", url.origin), 301);
  }
  if (!isLocale(lang)) throw data({ kind: "unmatched" }, { status: 404 });
};

export const middleware: Route.MiddlewareFunction[] = [localeGuard];

// A loader makes client navigations pass through the server, so the guard runs for them too.
export function loader() {
  return null;
}

export default function LocaleLayout() {
  return <Outlet />;
}
