import type { RequestHandler } from "express";
import type { Logger } from "pino";
import { pinoHttp } from "pino-http";

/** One structured line per request, tagged with the request id; health probes stay quiet. */
export function createHttpLogger(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: (_req, res) => (res as unknown as { locals: { requestId: string } }).locals.requestId,
    autoLogging: { ignore: (req) => req.url === "/healthz" || req.url === "/readyz" },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info"),
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(req.url ?? "").slice(0, 512),
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  }) as unknown as RequestHandler;
}

// Query parameters that are credentials: invitation and password-reset tokens (?token=), email-link
// token hashes and PKCE codes. Whoever reads the access log must not be able to use them (issue 25).
const SECRET_PARAMS = /([?&;](?:token|token_hash|code|access_token|refresh_token|nonce)=)[^&;#]*/gi;

/** The URL as logged: secret query values replaced by "[redacted]". */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, "$1[redacted]");
}
