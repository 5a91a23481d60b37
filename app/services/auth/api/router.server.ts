import type { AuthRuntime } from "../auth-runtime.server.ts";
import { AuthApiError, errorResponse, errors } from "../errors.server.ts";
import type { AuthCall, AuthRoute } from "./http.server.ts";
import { routes } from "./routes.server.ts";
import { storableText } from "./storable.server.ts";

export const AUTH_PREFIX = "/auth/v1";

interface Compiled {
  route: AuthRoute;
  pattern: RegExp;
  names: string[];
}

function compile(route: AuthRoute): Compiled {
  const names: string[] = [];
  const source = route.path.replace(/:([a-z_]+)/g, (_m, name: string) => {
    names.push(name);
    return "([^/]+)";
  });
  return { route, pattern: new RegExp(`^${source}/?$`), names };
}

const compiled = routes.map(compile);

// The server's request guard rejects bad percent-encoding first, but this router is also called
// directly (tests, other entry points): a malformed id is the caller's error, not a crash.
function decodeParam(value: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    throw errors.validation("Malformed percent-encoding in the URL path");
  }
  if (!storableText(decoded)) throw errors.validation("The URL path must not contain NUL characters");
  return decoded;
}

/** Query values reach the database too (redirect_to, filter): %00 would break a statement. */
function checkQuery(url: URL): void {
  for (const [key, value] of url.searchParams) {
    if (!storableText(key) || !storableText(value)) throw errors.validation("Query parameters must not contain NUL characters");
  }
}

/**
 * Answers a request under /auth/v1 the way GoTrue would: dispatches on method and path, turns
 * thrown AuthApiErrors into GoTrue-shaped JSON, and never lets an unexpected error out as a stack.
 */
export async function handleAuthRequest(
  request: Request,
  auth: AuthRuntime,
  client: { ip: string; userAgent: string | null },
): Promise<Response> {
  if (request.method.toUpperCase() === "OPTIONS") return withCors(new Response(null, { status: 204 }));
  return withCors(await dispatch(request, auth, client));
}

// Like Supabase's, the API is called with bearer tokens, never cookies, so any origin may call it
// (a Murmur in hosted mode points its browsers here).
const CORS_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
  "Access-Control-Allow-Headers": "authorization, apikey, content-type, x-client-info, x-supabase-api-version",
  "Access-Control-Expose-Headers": "x-total-count, link, x-supabase-api-version",
  "Access-Control-Max-Age": "600",
};

function withCors(response: Response): Response {
  const headers = new Headers(response.headers);
  for (const [k, v] of Object.entries(CORS_HEADERS)) headers.set(k, v);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

async function dispatch(
  request: Request,
  auth: AuthRuntime,
  client: { ip: string; userAgent: string | null },
): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname.startsWith(AUTH_PREFIX) ? url.pathname.slice(AUTH_PREFIX.length) || "/" : url.pathname;
  const method = request.method.toUpperCase() === "HEAD" ? "GET" : request.method.toUpperCase();
  try {
    checkQuery(url);
    const candidates = compiled.filter((c) => c.pattern.test(path));
    if (candidates.length === 0) throw errors.notFound();
    const match = candidates.find((c) => c.route.method === method);
    if (!match) throw errors.methodNotAllowed();
    const values = match.pattern.exec(path)?.slice(1) ?? [];
    const params = Object.fromEntries(match.names.map((n, i) => [n, decodeParam(values[i] ?? "")]));
    const call: AuthCall = { request, url, path, params, auth, ip: client.ip, userAgent: client.userAgent };
    return await match.route.handler(call);
  } catch (error) {
    if (error instanceof AuthApiError) return errorResponse(error);
    auth.logger.error({ err: error, path }, "auth API failure");
    return errorResponse(
      new AuthApiError(500, "unexpected_failure", "Unexpected failure, please check server logs for more information"),
    );
  }
}
