import { describe, expect, it } from "vitest";
import type { AuthConfig } from "#app/services/auth/config.server.ts";
import { isAllowedRedirect, resolveRedirect } from "#app/services/auth/redirects.server.ts";

const config = {
  siteUrl: "https://scribe.example.org",
  redirectAllowList: [
    "https://*.clinic.example.com/auth/callback",
    "http://localhost:5173/**",
    "com.murmur.app://login-callback",
  ],
} as AuthConfig;

describe("email-link redirect targets (GoTrue URI_ALLOW_LIST semantics)", () => {
  it.each([
    "https://scribe.example.org/update-password",
    "https://scribe.example.org/fr/auth/callback?next=%2Fdashboard",
    "https://north.clinic.example.com/auth/callback",
    "http://localhost:5173/auth/callback#ignored",
    "http://localhost:5173/a/b/c",
    "com.murmur.app://login-callback",
  ])("allows %s", (url) => {
    expect(isAllowedRedirect(config, url)).toBe(true);
    expect(resolveRedirect(config, url)).toBe(url);
  });

  it.each([
    "http://scribe.example.org/update-password",
    "https://scribe.example.org:8443/",
    "https://scribe.example.org.evil.test/",
    "https://user:pass@scribe.example.org/",
    "https://a.b.clinic.example.com/auth/callback",
    "https://evil.test/.clinic.example.com/auth/callback",
    "https://north.clinic.example.com/auth/callback/extra",
    "http://localhost:5174/",
    "javascript:alert(1)",
    "/relative/path",
    "",
  ])("refuses %s and falls back to the site URL", (url) => {
    expect(isAllowedRedirect(config, url)).toBe(false);
    expect(resolveRedirect(config, url)).toBe("https://scribe.example.org");
  });
});
