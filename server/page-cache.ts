import type { RequestHandler, Response } from "express";
import { isbot } from "isbot";

/**
 * A short-lived in-process cache for anonymous pages (issue 17 "Throughput"; ADR 0033).
 *
 * The sign-in, sign-up and marketing pages render the same HTML for every visitor who carries no
 * cookie, except the per-response CSP nonce. Rendering them is most of a cold visitor's cost (React
 * Router matching, i18next, react-dom: bench/web's profile), so a visitor without cookies gets a copy
 * rendered at most `ttlMs` ago, with the copy's nonce swapped for this response's own.
 *
 * What may be cached is the route's decision, not this file's: a route opts in by answering with
 * the internal header `X-Murmur-Page-Cache: anonymous` (app/utils/page-cache.ts), which never leaves
 * the server. And only when the request had no cookie, no Authorization header and no query string,
 * the answer is a 200 HTML page that sets no cookie: nothing user-specific can be stored or served.
 */
export const PAGE_CACHE_HEADER = "x-murmur-page-cache";

interface Entry {
  headers: [string, string | number | string[]][];
  body: Buffer;
  nonce: string;
  storedAt: number;
}

/** Headers that belong to one response, never to the copy (the middlewares set them anew). */
const PER_RESPONSE = new Set([
  "content-security-policy",
  "date",
  "x-request-id",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "vary",
  PAGE_CACHE_HEADER,
]);

export function pageCache(options: { ttlMs: number; maxEntries?: number; now?: () => number }): RequestHandler {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 200;
  const entries = new Map<string, Entry>();
  if (options.ttlMs <= 0) {
    return (_req, res, next) => {
      stripMarker(res);
      next();
    };
  }

  return (req, res, next) => {
    if (req.method !== "GET" || req.headers.cookie || req.headers.authorization || req.originalUrl.includes("?")) {
      // Not a visitor a copy is for, but the route's marker must still never leave the server.
      stripMarker(res);
      return next();
    }
    // Crawlers get the page rendered to the end (app/entry.server.tsx), browsers a streamed one:
    // each kind gets copies of its own kind.
    const key = `${isbot(req.headers["user-agent"] ?? "") ? "bot" : "browser"} ${req.originalUrl}`;
    const nonce = (res.locals as { nonce?: string }).nonce ?? "";
    const hit = entries.get(key);
    if (hit && now() - hit.storedAt < options.ttlMs) {
      for (const [name, value] of hit.headers) if (!res.hasHeader(name)) res.setHeader(name, value);
      res.setHeader("X-Page-Cache", "hit");
      res.status(200).end(hit.nonce && nonce ? replaceAll(hit.body, hit.nonce, nonce) : hit.body);
      return;
    }
    capture(res, (headers, body) => {
      if (entries.size >= maxEntries) {
        // The oldest copy goes first (Map keeps insertion order).
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      entries.delete(key);
      entries.set(key, { headers, body, nonce, storedAt: now() });
    });
    next();
  };
}

function stripMarker(res: Response): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => Response;
  res.writeHead = ((...args: unknown[]) => {
    res.removeHeader(PAGE_CACHE_HEADER);
    return writeHead(...args);
  }) as Response["writeHead"];
}

/** Collects the body of a response that opted in, and hands it over once it has ended well. */
function capture(res: Response, store: (headers: Entry["headers"], body: Buffer) => void): void {
  let cacheable = false;
  const chunks: Buffer[] = [];
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => Response;
  res.writeHead = ((...args: unknown[]) => {
    // The marker is removed before the headers leave, whatever the response turns out to be.
    const marked = res.getHeader(PAGE_CACHE_HEADER) === "anonymous";
    res.removeHeader(PAGE_CACHE_HEADER);
    const status = typeof args[0] === "number" ? args[0] : res.statusCode;
    const type = String(res.getHeader("content-type") ?? "");
    cacheable = marked && status === 200 && type.startsWith("text/html") && !res.hasHeader("set-cookie");
    if (cacheable) res.setHeader("X-Page-Cache", "miss");
    return writeHead(...args);
  }) as Response["writeHead"];
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (!res.headersSent) res.writeHead(res.statusCode);
    if (cacheable && chunk != null) chunks.push(toBuffer(chunk, rest[0]));
    return write(chunk, ...rest);
  }) as Response["write"];
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (!res.headersSent) res.writeHead(res.statusCode);
    if (cacheable && chunk != null && typeof chunk !== "function") chunks.push(toBuffer(chunk, rest[0]));
    if (cacheable) {
      const headers = Object.entries(res.getHeaders())
        .filter(([name, value]) => !PER_RESPONSE.has(name) && name !== "x-page-cache" && value !== undefined)
        .map(([name, value]) => [name, value] as [string, string | number | string[]]);
      res.once("finish", () => store(headers, Buffer.concat(chunks)));
    }
    return end(chunk, ...rest);
  }) as Response["end"];
}

function toBuffer(chunk: unknown, encoding: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return Buffer.from(String(chunk), typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
}

function replaceAll(body: Buffer, from: string, to: string): Buffer {
  return Buffer.from(body.toString("utf8").replaceAll(from, to), "utf8");
}
