import type { RouterContextProvider } from "react-router";
import type { z } from "zod";
import { runtimeContext } from "#app/runtime/context.ts";
import type { BlobStore } from "#app/services/storage/blob-store.ts";
import { blobStore } from "#app/services/storage/storage.server.ts";
import { DetailedAppError, visitErrors } from "#app/services/visits/errors.server.ts";
import { isAppError } from "#app/utils/app-error.ts";
import { invalidInput, parseJsonBody } from "./org-api.server.ts";

// The edge of the patients and visits API (docs/api.md "Patients and visits"), beside
// org-api.server.ts: error answers that carry details (the missing chunk numbers), JSON bodies
// read with a limit while streaming, the blob store of this runtime.

/** PostgreSQL text cannot hold NUL: refused as input (400) rather than failing in the database (500). */
export const hasNoNul = (value: string) => !value.includes("\u0000");
export const NO_NUL = "must not contain NUL characters";

/** Like handleApi, plus the extra fields of a DetailedAppError (`{ code, message, missing: [...] }`). */
export async function handleVisitApi(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (!isAppError(error)) throw error;
    const details = error instanceof DetailedAppError ? error.details : {};
    return Response.json(
      { ...details, code: error.code, message: error.message },
      { status: error.status, headers: { "Cache-Control": "no-store" } },
    );
  }
}

/** The Content-Length header as a number, or null when absent or unreadable (chunked bodies). */
export function contentLength(request: Request): number | null {
  const raw = request.headers.get("content-length");
  return raw !== null && /^\d{1,15}$/.test(raw) ? Number(raw) : null;
}

/**
 * The JSON body validated by `schema`, read with a byte limit enforced while streaming (a
 * chunked body has no Content-Length for the request guard to check): over it 413
 * payload_too_large, invalid UTF-8 or malformed JSON 400 bad_json, a wrong shape 400 invalid_text or
 * validation_failed (see invalidInput).
 */
export async function readJsonLimited<S extends z.ZodType>(request: Request, schema: S, maxBytes: number): Promise<z.infer<S>> {
  const length = contentLength(request);
  if (length !== null && length > maxBytes) throw visitErrors.bodyTooLarge(maxBytes);
  const parts: Uint8Array[] = [];
  let total = 0;
  if (request.body) {
    const reader = request.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        total += value.byteLength;
        if (total > maxBytes) throw visitErrors.bodyTooLarge(maxBytes);
        parts.push(value);
      }
    } finally {
      reader.releaseLock();
    }
  }
  const parsed = schema.safeParse(parseJsonBody(Buffer.concat(parts)));
  if (!parsed.success) throw invalidInput(parsed.error, "body");
  return parsed.data;
}

/** The query string validated by `schema` (400 validation_failed). */
export function readQuery<S extends z.ZodType>(request: Request, schema: S): z.infer<S> {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw invalidInput(parsed.error, "query");
  return parsed.data;
}

export function storeOf(context: Readonly<RouterContextProvider>): BlobStore {
  return blobStore(context.get(runtimeContext).env);
}

/** The largest JSON body outside audio routes (MAX_BODY_BYTES, as the request guard uses). */
export function maxJsonBytes(context: Readonly<RouterContextProvider>): number {
  return context.get(runtimeContext).env.MAX_BODY_BYTES;
}
