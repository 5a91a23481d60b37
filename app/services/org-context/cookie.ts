/**
 * The current organisation cookie (issue 4): remembered across visits and devices' tabs, and
 * readable by scripts because the browser store clears it on sign-out (SPEC §4 SIGNED_OUT).
 * The server never trusts it: every request checks it against the user's memberships.
 */
export const ORG_COOKIE = "murmur-org";
const ONE_YEAR_S = 365 * 24 * 60 * 60;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function readOrgCookie(cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === ORG_COOKIE) {
      // The cookie is the client's to write: bad percent-encoding ("%E0%A4%A") is no organisation,
      // not a 500 on every page. A UUID needs no decoding, so test the raw value first.
      const raw = rest.join("=").trim();
      const value = UUID.test(raw) ? raw : safeDecode(raw);
      return value !== null && UUID.test(value) ? value.toLowerCase() : null;
    }
  }
  return null;
}

function safeDecode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

export function orgCookieHeader(orgId: string, secure: boolean): string {
  return `${ORG_COOKIE}=${orgId}; Path=/; Max-Age=${ONE_YEAR_S}; SameSite=Lax${secure ? "; Secure" : ""}`;
}

export function clearOrgCookieHeader(): string {
  return `${ORG_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
}
