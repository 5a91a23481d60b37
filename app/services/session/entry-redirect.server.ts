import { pickAcceptLanguage } from "#app/i18n/accept-language.ts";
import { DEFAULT_LOCALE, isLocale, type Locale, localizePath } from "#app/i18n/config.ts";
import { localeCookieHeader, readLocaleCookie } from "#app/i18n/locale-cookie.server.ts";

/**
 * Where "/" (or "/fr", "/es") sends a visitor (SPEC §2): a recovery or confirmation link goes to
 * /update-password with its values; otherwise /dashboard when signed in, /login when not. At the
 * bare "/", a remembered language choice, else Accept-Language on a first visit, picks the prefix.
 */
export function chooseEntryRedirect(input: {
  url: URL;
  prefix: string | undefined;
  cookieHeader: string | null;
  acceptLanguage: string | null;
  signedIn: boolean;
  /** Cookies are marked Secure (HTTPS request or https SITE_URL); the request's protocol by default. */
  secure?: boolean;
}): { location: string; setCookie?: string } {
  let locale: Locale = input.prefix && isLocale(input.prefix) ? input.prefix : DEFAULT_LOCALE;
  let setCookie: string | undefined;
  if (input.prefix === undefined) {
    const remembered = readLocaleCookie(input.cookieHeader);
    if (remembered) {
      locale = remembered;
    } else {
      locale = pickAcceptLanguage(input.acceptLanguage) ?? DEFAULT_LOCALE;
      setCookie = localeCookieHeader(locale, input.secure ?? input.url.protocol === "https:");
    }
  }
  const q = input.url.searchParams;
  const token = q.get("token");
  const code = q.get("code");
  if (token || (code && q.get("type") === "recovery")) {
    const carry = new URLSearchParams();
    for (const key of ["token", "code", "type", "email"]) {
      const value = q.get(key);
      if (value !== null) carry.set(key, value);
    }
    return { location: `${localizePath("/update-password", locale)}?${carry}`, setCookie };
  }
  return { location: localizePath(input.signedIn ? "/dashboard" : "/login", locale), setCookie };
}
