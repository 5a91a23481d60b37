/**
 * A failure a service reports to its caller: an HTTP status, a stable machine `code` (documented in
 * docs/api.md, translated in the UI) and an English message for logs and API clients.
 * Services throw it; the edge turns it into a response with appErrorResponse (CONVENTIONS "Services and data").
 */
export class AppError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = "AppError";
    this.status = status;
    this.code = code;
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/** The one mapping from AppError to HTTP: `{ code, message }` with the error's status, never cached. */
export function appErrorResponse(error: AppError, headers: Record<string, string> = {}): Response {
  return Response.json(
    { code: error.code, message: error.message },
    { status: error.status, headers: { "Cache-Control": "no-store", ...headers } },
  );
}
