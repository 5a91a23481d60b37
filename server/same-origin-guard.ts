import type { RequestHandler } from "express";
import { reject } from "./request-guard.ts";

// Cross-site request forgery (issue 17): a state-changing request that rides on the browser's
// cookies must come from one of our own pages. Browsers send `Origin` on every cross-origin POST
// (and `Referer` otherwise), so a page on another site is refused here before any route runs;
// SameSite=Lax cookies already stop most of these, this also covers same-site subdomains and
// older browsers. Left alone: safe methods, requests without cookies (bearer-token API clients
// have nothing ambient to abuse), and the token-based auth API, which GoTrue serves to any origin.
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);
const EXEMPT = [/^\/auth\/v1\//, /^\/api\/billing\/stripe\/webhook$/];

export function sameOriginGuard(options: { siteUrl?: string | undefined }): RequestHandler {
  const configured = options.siteUrl ? new URL(options.siteUrl).origin : null;
  return (req, res, next) => {
    if (SAFE.has(req.method) || !req.get("cookie") || EXEMPT.some((r) => r.test(req.path))) return next();
    const fromOrigin = originOf(req.get("origin"));
    const source = fromOrigin === undefined ? originOf(req.get("referer")) : fromOrigin;
    // No header at all: not a browser page (a browser always says where a cross-origin POST comes from).
    if (source === undefined) return next();
    const own = `${req.protocol}://${req.get("host")}`;
    if (source === own || source === configured) return next();
    req.resume();
    reject(req, res, { status: 403, code: "cross_site_request" });
  };
}

/** The origin a header names; null for "null" or garbage (opaque origins are refused), undefined when absent. */
function originOf(header: string | undefined): string | null | undefined {
  if (header === undefined || header === "") return undefined;
  try {
    const origin = new URL(header).origin;
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}
