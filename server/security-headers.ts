import type { RequestHandler, Response } from "express";
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
        // 'wasm-unsafe-eval' lets the periodontal chart compile its speech recogniser (WebAssembly,
        // ADR 0014); it allows no JavaScript eval.
        scriptSrc: options.development
          ? ["'self'", "'unsafe-inline'", "'wasm-unsafe-eval'"]
          : [
              "'self'",
              "'wasm-unsafe-eval'",
              (_req, res) => `'nonce-${(res as unknown as { locals: { nonce: string } }).locals.nonce}'`,
            ],
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
    replaceOnAppend(res);
    csp(req, res, next);
  };
}

/**
 * Headers that hold one value: when a route's Response sets one (file responses set CORP and
 * nosniff, app/utils/file-response.ts), it replaces helmet's default rather than joining it.
 * React Router's Express adapter copies a Response's headers with `res.append`, and a joined
 * `Cross-Origin-Resource-Policy: same-origin, same-origin` is invalid, so browsers would ignore it.
 * (A second Content-Security-Policy is left to join: both policies are then enforced.)
 */
const SINGLE_VALUED = new Set(["cross-origin-resource-policy", "x-content-type-options", "x-frame-options", "referrer-policy"]);

function replaceOnAppend(res: Response): void {
  const append = res.append.bind(res);
  res.append = (field: string, value?: string | string[]) =>
    SINGLE_VALUED.has(field.toLowerCase()) && value !== undefined ? res.setHeader(field, value) : append(field, value);
}
