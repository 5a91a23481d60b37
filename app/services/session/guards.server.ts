import { type RouterContextProvider, redirect } from "react-router";
import { localeFromPath, localizePath } from "#app/i18n/config.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import { safeRedirectTarget } from "#app/utils/safe-redirect.ts";
import { type SessionUser, userContext } from "./user-context.ts";

export function getUser(context: Readonly<RouterContextProvider>): SessionUser | null {
  return context.get(userContext);
}

/**
 * Sends an anonymous visitor to the sign-in page of their language, remembering where they were;
 * a user with a second factor who has not used it yet goes to the code step (the app requires aal2).
 */
export function requireUser(context: Readonly<RouterContextProvider>, request: Request): SessionUser {
  const user = getUser(context);
  if (user && !user.mfaRequired) return user;
  const url = pageUrl(request);
  const login = localizePath("/login", localeFromPath(url.pathname));
  const query = new URLSearchParams({ redirectTo: url.pathname + url.search });
  if (user?.mfaRequired) query.set("step", "mfa");
  throw redirect(`${login}?${query}`);
}

/** Signed-in visitors have nothing to do on the sign-in pages: send them on. */
export function requireAnonymous(context: Readonly<RouterContextProvider>, request: Request): void {
  const user = getUser(context);
  if (!user || user.mfaRequired) return;
  const url = pageUrl(request);
  throw redirect(
    safeRedirectTarget(url.searchParams.get("redirectTo"), localizePath("/dashboard", localeFromPath(url.pathname)), url.origin),
  );
}
