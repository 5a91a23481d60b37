import { localeFromPath, localizePath, stripLocale } from "#app/i18n/config.ts";

/** The path without locale prefix and trailing slash: "/fr/login/" → "/login". */
function barePath(pathname: string): string {
  const bare = stripLocale(pathname);
  return bare.length > 1 && bare.endsWith("/") ? bare.slice(0, -1) : bare;
}

/** /login, /fr/login, /es/login (SPEC §2: every route exists with and without a locale prefix). */
export function isLoginPath(pathname: string): boolean {
  return barePath(pathname) === "/login";
}

/** The login page in the language of the page the user is on (SPEC §4 Session expiry, Sign-out). */
export function loginPathFor(pathname: string): string {
  return localizePath("/login", localeFromPath(pathname));
}

/** SPEC §4 Tab visibility: the transcribing page gets a reconnect check. */
export function isTranscribingPath(pathname: string): boolean {
  return barePath(pathname).endsWith("/transcribing");
}
