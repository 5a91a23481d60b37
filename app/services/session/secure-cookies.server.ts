import type { RouterContextProvider } from "react-router";
import { runtimeContext } from "#app/runtime/context.ts";
import { isServedOverHttps } from "./auth-mode.server.ts";

/**
 * Whether cookies set on this response are marked Secure: the request came over HTTPS, or the
 * site's public address (SITE_URL) is https — behind a TLS proxy the app does not trust, the
 * request itself reaches the app as http (issue 25: the organisation, language and theme cookies
 * followed the request's protocol only, unlike the session cookie).
 */
export function secureCookies(request: Request, context: Readonly<RouterContextProvider>): boolean {
  return isServedOverHttps(new URL(request.url).origin, context.get(runtimeContext).env.SITE_URL);
}
