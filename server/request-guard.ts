import type { Request, RequestHandler, Response } from "express";
import { limitBodyBytes } from "./body-limit.ts";
import { rejectionMessage } from "./rejection-messages.ts";

export const MAX_URL_LENGTH = 8192;
// Audio uploads (500 MB files, 10 MB chunks, 8 MB manifests) count their own bytes as they spool
// them (app/services/storage/spool.server.ts, readJsonLimited): the guard leaves them alone.
const AUDIO_ROUTES = /^\/api\/visits\/[^/]+\/audio(\/|$)/;
// Code-set imports take a 10 MB file (MAX_IMPORT_BYTES) plus room for the multipart envelope.
const IMPORT_ROUTE = /^\/api\/code-systems\/import$/;
export const MAX_IMPORT_BODY_BYTES = 10 * 1024 * 1024 + 64 * 1024;
// The patient page's "Upload a recording" form (issue 29): a 500 MB file (MAX_AUDIO_FILE_BYTES) in a
// multipart form, read by the page action; the guard counts its bytes up to that plus 1 MiB.
const PATIENT_UPLOAD_ROUTE = /^(\/(fr|es))?\/patients\/[0-9a-fA-F-]{36}$/;
export const MAX_PATIENT_UPLOAD_BODY_BYTES = 500 * 1024 * 1024 + 1024 * 1024;

export type Rejection = {
  status: number;
  code: "uri_too_long" | "malformed_url" | "payload_too_large" | "bad_request" | "cross_site_request";
};

/**
 * Turns requests no page could serve into clear 4xx answers before they reach the router:
 * over-long URLs, bad percent-encoding or invalid UTF-8, path traversal, a missing or malformed
 * Host, oversized bodies — by their Content-Length and, chunked or not, by the bytes actually read.
 */
export function guardRequest(options: { maxBodyBytes: number }): RequestHandler {
  return (req, res, next) => {
    const rejection = inspect(req, options.maxBodyBytes);
    if (!rejection) {
      const limit = bodyLimit(pathOf(req.originalUrl), options.maxBodyBytes);
      if (limit !== null && req.method !== "GET" && req.method !== "HEAD") {
        limitBodyBytes(req, res, limit, () => {
          if (res.headersSent) return;
          res.setHeader("Connection", "close");
          reject(req, res, { status: 413, code: "payload_too_large" });
        });
      }
      return next();
    }
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
  const rawPath = pathOf(url);
  let decodedPath: string;
  try {
    decodedPath = decodeURIComponent(rawPath);
    if (q !== -1) {
      for (const part of url.slice(q + 1).split(/[&;]/)) decodeURIComponent(part.replace(/\+/g, " "));
    }
  } catch {
    return { status: 400, code: "malformed_url" };
  }
  // Control characters (a newline, a NUL) are in no page's path; React Router's patterns do not
  // even match a newline, and such a path reached the error page without its i18n context.
  if (/(^|[/\\])\.\.([/\\]|$)/.test(decodedPath) || PATH_CONTROLS.test(decodedPath) || decodedPath.includes("\\")) {
    return { status: 400, code: "malformed_url" };
  }
  // Without a Host (HTTP/1.0, hand-made requests) or with one no URL can hold, no absolute URL can
  // be built for the router: a 400, not a TypeError deep in the adapter.
  if (!HOST.test(req.get("host") ?? "") || !HOST.test(req.hostname ?? "")) return { status: 400, code: "bad_request" };
  const length = req.get("content-length");
  if (length !== undefined) {
    if (!/^\d{1,15}$/.test(length)) return { status: 400, code: "bad_request" };
    const limit = bodyLimit(rawPath, maxBodyBytes);
    if (limit !== null && Number(length) > limit) return { status: 413, code: "payload_too_large" };
  }
  return null;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const PATH_CONTROLS = /[\u0000-\u001f\u007f]/;

// A DNS name or IPv4 address, or a bracketed IPv6 address, with an optional port.
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

function pathOf(url: string): string {
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

/** The most body bytes a path may send; null where the route counts them itself (audio). */
export function bodyLimit(path: string, maxBodyBytes: number): number | null {
  if (AUDIO_ROUTES.test(path)) return null;
  if (IMPORT_ROUTE.test(path)) return Math.max(maxBodyBytes, MAX_IMPORT_BODY_BYTES);
  if (PATIENT_UPLOAD_ROUTE.test(path)) return Math.max(maxBodyBytes, MAX_PATIENT_UPLOAD_BODY_BYTES);
  return maxBodyBytes;
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
