import { redirect } from "react-router";
import { chooseEntryRedirect } from "#app/services/session/entry-redirect.server.ts";
import { getUser } from "#app/services/session/guards.server.ts";
import { secureCookies } from "#app/services/session/secure-cookies.server.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import type { Route } from "./+types/index";

// "/" has no page of its own (SPEC §2): it only decides where the visitor goes.
export function loader({ request, context, params }: Route.LoaderArgs) {
  const { location, setCookie } = chooseEntryRedirect({
    url: pageUrl(request),
    prefix: params.lang,
    cookieHeader: request.headers.get("cookie"),
    acceptLanguage: request.headers.get("accept-language"),
    signedIn: getUser(context) !== null,
    secure: secureCookies(request, context),
  });
  throw redirect(location, { headers: setCookie ? { "Set-Cookie": setCookie } : undefined });
}

// A component keeps this a page route, so "/xx" with an unknown prefix renders the 404 page.
export default function Index() {
  return null;
}
