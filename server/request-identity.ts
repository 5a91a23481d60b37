import { randomBytes, randomUUID } from "node:crypto";
import type { RequestHandler } from "express";

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

/** A request id (kept from a proxy when well-formed) and a fresh CSP nonce for every request. */
export function requestIdentity(): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get("x-request-id");
    const requestId = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = requestId;
    res.locals.nonce = randomBytes(16).toString("base64");
    res.setHeader("X-Request-Id", requestId);
    next();
  };
}
