/** The longest redirect target a client may hand us (query strings, form fields). */
export const MAX_REDIRECT_TARGET_LENGTH = 2048;

/** Resolves a target when the caller has no request at hand; only the path of the answer is kept. */
const LOCAL_ORIGIN = "http://murmur.invalid";

/**
 * A target from the client (`redirectTo`, `next`…) as a path on this site, or null when a browser
 * following it would leave the site. It is resolved the way a browser resolves `Location` (WHATWG
 * URL: tabs and newlines dropped, `\` read as `/`, `/./` and `..` collapsed) against our origin,
 * must land on that origin, and comes back re-serialised by URL: path + query + hash only, ASCII,
 * with controls percent-encoded, so "/\t/evil.example" or "/.//evil" can never reach a header as
 * a scheme-relative "//evil…". A regex on the raw string cannot know all of this; the parser does.
 */
export function sameOriginPath(value: unknown, origin: string = LOCAL_ORIGIN): string | null {
  if (typeof value !== "string" || value === "" || value.length > MAX_REDIRECT_TARGET_LENGTH) return null;
  let base: URL;
  let url: URL;
  try {
    base = new URL(origin);
    url = new URL(value, base.origin);
  } catch {
    return null;
  }
  if (url.origin !== base.origin || url.username !== "" || url.password !== "") return null;
  const path = url.pathname + url.search + url.hash;
  // "/.//evil" serialises to the path "//evil": a browser would read that as another host.
  if (!path.startsWith("/") || path.startsWith("//")) return null;
  // Belt and braces: the answer must mean the very same URL when read again.
  if (new URL(path, base.origin).href !== url.href) return null;
  return path;
}

/** A client-supplied redirect target if it stays on this site (see sameOriginPath), else `fallback`. */
export function safeRedirectTarget(value: unknown, fallback: string, origin?: string): string {
  return sameOriginPath(value, origin) ?? fallback;
}
