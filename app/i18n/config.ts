/** Interface languages (SPEC §1). English is the default and has no URL prefix. */
export const LOCALES = ["en", "fr", "es"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";

export const NAMESPACES = [
  "common",
  "marketing",
  "auth",
  "app",
  "errors",
  "dev",
  "org",
  "orgSettings",
  "invites",
  "billing",
  "recorder",
  "templates",
  "notes",
  "patients",
  "ui",
  "rag",
  "perio",
  "coding",
  "asr",
  "dashboard",
  "checks",
] as const;
export type Namespace = (typeof NAMESPACES)[number];

/** SPEC §1, §9: the visitor's language choice, kept 365 days. */
export const LOCALE_COOKIE = "i18n_redirected";
export const LOCALE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** The locale a path is in: its first segment when that is fr or es, else English. */
export function localeFromPath(pathname: string): Locale {
  const first = pathname.split("/")[1];
  return first && first !== DEFAULT_LOCALE && isLocale(first) ? first : DEFAULT_LOCALE;
}

/** The path without its locale prefix ("/fr/login" → "/login", "/fr" → "/"). */
export function stripLocale(pathname: string): string {
  const first = pathname.split("/")[1];
  if (first && isLocale(first)) return pathname.slice(first.length + 1) || "/";
  return pathname || "/";
}

/** The same page in another language. */
export function localizePath(pathname: string, locale: Locale): string {
  const bare = stripLocale(pathname);
  if (locale === DEFAULT_LOCALE) return bare;
  return bare === "/" ? `/${locale}` : `/${locale}${bare}`;
}
