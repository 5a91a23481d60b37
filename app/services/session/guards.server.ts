import { type RouterContextProvider, redirect } from "react-router";
import { localeFromPath, localizePath } from "#app/i18n/config.ts";
import { type SessionUser, userContext } from "./user-context.ts";

export function getUser(context: Readonly<RouterContextProvider>): SessionUser | null {
  return context.get(userContext);
}

/** Sends an anonymous visitor to the sign-in page of their language, remembering where they were. */
export function requireUser(context: Readonly<RouterContextProvider>, request: Request): SessionUser {
  const user = getUser(context);
  if (user) return user;
  const url = new URL(request.url);
  const login = localizePath("/login", localeFromPath(url.pathname));
  throw redirect(`${login}?${new URLSearchParams({ redirectTo: url.pathname + url.search })}`);
}
