import { useCallback } from "react";
import { useLocation } from "react-router";
import { type Locale, localeFromPath, localizePath } from "./config.ts";

/** The page's language, read from the URL like the server does. */
export function useLocale(): Locale {
  return localeFromPath(useLocation().pathname);
}

/** Turns an unprefixed path ("/login") into the current language's ("/fr/login"). */
export function useLocalizedPath(): (path: string) => string {
  const locale = useLocale();
  return useCallback((path: string) => localizePath(path, locale), [locale]);
}
