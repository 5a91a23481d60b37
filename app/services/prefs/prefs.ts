/**
 * Interface preferences kept in cookies (issue 11): the sidebar's collapsed state and the colour
 * theme. Cookies, not local storage, so the server renders the right layout and theme with no flash.
 */
export const SIDEBAR_COOKIE = "murmur-sidebar";
export const THEME_COOKIE = "murmur-theme";
export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];
export const PREFS_MAX_AGE_S = 365 * 24 * 60 * 60;

function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return null;
}

export function readTheme(request: Request): Theme {
  const value = readCookie(request.headers.get("Cookie"), THEME_COOKIE);
  return value === "light" || value === "dark" ? value : "system";
}

export function readSidebarCollapsed(request: Request): boolean {
  return readCookie(request.headers.get("Cookie"), SIDEBAR_COOKIE) === "collapsed";
}

export function prefCookieHeader(name: string, value: string, secure: boolean): string {
  return `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${PREFS_MAX_AGE_S}; SameSite=Lax${secure ? "; Secure" : ""}`;
}
