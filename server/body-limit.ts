import type { Request, Response } from "express";

/** The error a body reader sees once a body passed its limit: the request was answered 413 already. */
export class BodyLimitExceededError extends Error {
  readonly status = 413;
  readonly code = "payload_too_large";
  readonly limit: number;
  constructor(limit: number) {
    super(`The request body passed its ${limit}-byte limit`);
    this.limit = limit;
  }
}

// After the 413 has been written, the connection lingers (the client's remaining bytes are read and
// thrown away) before it is closed: closing a socket with unread input makes the kernel send a
// reset, which can destroy the answer before the client has read it (200 ms lost it on a busy
// test machine). Bounded in time and in bytes, as nginx's lingering close is.
const LINGER_MS = 2_000;
const LINGER_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Counts the bytes of a request body as the HTTP parser hands them over, whatever the framing
 * (Content-Length or chunked) and whoever reads them (form actions, the auth API, JSON routes).
 * Past `maxBytes`, nothing more reaches any reader: `onExceeded` answers (a 413), the bytes still
 * arriving are discarded (memory stays flat), and the body stream fails with
 * BodyLimitExceededError so no reader ever mistakes a cut body for a whole one.
 *
 * Why `push`: Node's parser delivers every body chunk through IncomingMessage#push, in flowing and
 * paused mode alike, before any consumer buffers it; React Router's adapter, Express parsers and
 * our own readers all sit downstream of it. A body nobody reads stops at the stream's high-water
 * mark (the parser pauses the socket), so it never reaches the limit unread.
 */
export function limitBodyBytes(req: Request, res: Response, maxBytes: number, onExceeded: () => void): void {
  let received = 0;
  let discarded = 0;
  let exceeded = false;
  const push = req.push.bind(req);
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (chunk === null) return exceeded ? false : push(chunk, encoding);
    if (exceeded) {
      discarded += (chunk as Buffer).length;
      if (discarded > LINGER_MAX_BYTES && res.writableFinished) req.destroy(new BodyLimitExceededError(maxBytes));
      return true;
    }
    received += (chunk as Buffer).length;
    if (received <= maxBytes) return push(chunk, encoding);
    exceeded = true;
    res.locals.bodyLimitExceeded = true;
    onExceeded();
    // Readers fail now (the body will never be whole); the socket itself lingers below. Only
    // emitted to listeners (a reader's): an 'error' nobody listens to would crash the process.
    if (req.listenerCount("error") > 0) req.emit("error", new BodyLimitExceededError(maxBytes));
    const fail = () => {
      const timer = setTimeout(() => req.destroy(new BodyLimitExceededError(maxBytes)), LINGER_MS);
      timer.unref();
    };
    if (res.writableFinished) fail();
    else res.once("finish", fail).once("close", fail);
    return true;
  };
}
