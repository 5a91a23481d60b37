import type { RequestHandler } from "express";
import helmet from "helmet";

/**
 * CSP with a per-request script nonce and frame-ancestors 'none', nosniff, a strict referrer
 * policy, and HSTS only when the request arrived over https (directly or via a trusted proxy).
 */
export function securityHeaders(options: { development: boolean; sentryDsn?: string; supabaseUrl?: string }): RequestHandler {
  const connectSrc = ["'self'"];
  if (options.sentryDsn) connectSrc.push(new URL(options.sentryDsn).origin);
  // Hosted auth: the browser's supabase-js talks to the project directly.
  if (options.supabaseUrl) connectSrc.push(new URL(options.supabaseUrl).origin);
  if (options.development) connectSrc.push("ws:", "wss:");
  const csp = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: options.development
          ? ["'self'", "'unsafe-inline'"]
          : ["'self'", (_req, res) => `'nonce-${(res as unknown as { locals: { nonce: string } }).locals.nonce}'`],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        mediaSrc: ["'self'", "blob:"],
        fontSrc: ["'self'", "data:"],
        connectSrc,
        workerSrc: ["'self'", "blob:"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    strictTransportSecurity: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    crossOriginEmbedderPolicy: false,
    xFrameOptions: { action: "deny" },
  });
  return (req, res, next) => {
    if (req.secure) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    csp(req, res, next);
  };
}
