import type { AuthConfig } from "./config.server.ts";

/**
 * GoTrue's URI_ALLOW_LIST globs (gobwas/glob with '.' and '/' as separators): `**` matches
 * anything, `*` matches within one host label or path segment, so `https://*.example.org/**`
 * cannot be stretched over `https://evil.test/.example.org`.
 */
function globToRegExp(pattern: string): RegExp {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === "*" && pattern[i + 1] === "*") {
      source += ".*";
      i++;
    } else if (c === "*") {
      source += "[^./]*";
    } else {
      source += c.replace(/[\\^$.+?()[\]{}|/-]/g, "\\$&");
    }
  }
  return new RegExp(`^${source}$`);
}

const compiled = new Map<string, RegExp>();

function matchesEntry(entry: string, candidate: string): boolean {
  if (!entry.includes("*")) return entry === candidate;
  let re = compiled.get(entry);
  if (!re) {
    re = globToRegExp(entry);
    compiled.set(entry, re);
  }
  return re.test(candidate);
}

/** May an email link send the browser to `candidate`? The site's own origin, or an allow-list entry. */
export function isAllowedRedirect(config: AuthConfig, candidate: string): boolean {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.origin !== "null" && url.origin === new URL(config.siteUrl).origin) return true;
  // Entries are matched without the fragment, as GoTrue does.
  const withoutFragment = candidate.split("#")[0] as string;
  return config.redirectAllowList.some((entry) => matchesEntry(entry, withoutFragment));
}

/** The redirect target to use: the requested one when allowed, else the site's home. */
export function resolveRedirect(config: AuthConfig, candidate: string | null | undefined): string {
  return candidate && isAllowedRedirect(config, candidate) ? candidate : config.siteUrl;
}
