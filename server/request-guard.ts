import type { Request, RequestHandler, Response } from "express";
import { rejectionMessage } from "./rejection-messages.ts";

export const MAX_URL_LENGTH = 8192;
// Audio uploads and code-set imports (10 MB) have their own, larger limits (enforced by their routes),
// as has the patient page's "Upload a recording" form (issue 29; 500 MB, patient-upload-page.server.ts).
const LARGE_BODY_ROUTES = [
  /^\/api\/visits\/[^/]+\/audio(\/|$)/,
  /^\/api\/code-systems\/import$/,
  /^(\/(fr|es))?\/patients\/[0-9a-fA-F-]{36}$/,
];

export type Rejection = {
  status: number;
  code: "uri_too_long" | "malformed_url" | "payload_too_large" | "bad_request" | "cross_site_request";
};

/**
 * Turns requests no page could serve into clear 4xx answers before they reach the router:
 * over-long URLs, bad percent-encoding or invalid UTF-8, path traversal, oversized bodies.
 */
export function guardRequest(options: { maxBodyBytes: number }): RequestHandler {
  return (req, res, next) => {
    const rejection = inspect(req, options.maxBodyBytes);
    if (!rejection) return next();
    // Drain what the client is still sending so it can read the answer, then close the connection.
    res.setHeader("Connection", "close");
    req.resume();
    reject(req, res, rejection);
  };
}

function inspect(req: Request, maxBodyBytes: number): Rejection | null {
  const url = req.originalUrl;
  if (url.length > MAX_URL_LENGTH) return { status: 414, code: "uri_too_long" };
  const q = url.indexOf("?");
  const rawPath = q === -1 ? url : url.slice(0, q);
  let decodedPath: string;
  try {
    decodedPath = decodeURIComponent(rawPath);
    if (q !== -1) {
      for (const part of url.slice(q + 1).split(/[&;]/)) decodeURIComponent(part.replace(/\+/g, " "));
    }
  } catch {
    return { status: 400, code: "malformed_url" };
  }
  if (/(^|[/\\])\.\.([/\\]|$)/.test(decodedPath) || decodedPath.includes("\0") || decodedPath.includes("\\")) {
    return { status: 400, code: "malformed_url" };
  }
  const length = req.get("content-length");
  if (length !== undefined) {
    if (!/^\d{1,15}$/.test(length)) return { status: 400, code: "bad_request" };
    if (Number(length) > maxBodyBytes && !LARGE_BODY_ROUTES.some((r) => r.test(rawPath))) {
      return { status: 413, code: "payload_too_large" };
    }
  }
  return null;
}

export function reject(req: Request, res: Response, { status, code }: Rejection) {
  const { message, lang } = rejectionMessage(code, req.originalUrl.slice(0, 4), req.get("accept-language"));
  const wantsJson =
    req.originalUrl.startsWith("/api/") || req.originalUrl.startsWith("/auth/") || req.accepts(["html", "json"]) === "json";
  res.status(status);
  if (wantsJson) {
    res.json({ code, message });
    return;
  }
  res
    .type("html")
    .send(
      `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${status} · Murmur AI Scribe</title></head><body><main><h1>${status}</h1><p>${escapeHtml(message)}</p><p><a href="/">Murmur AI Scribe</a></p></main></body></html>`,
    );
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
