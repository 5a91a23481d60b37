import type { RouterContextProvider } from "react-router";
import type { z } from "zod";
import { pickAcceptLanguage } from "#app/i18n/accept-language.ts";
import { DEFAULT_LOCALE, type Locale } from "#app/i18n/config.ts";
import { requestInfoContext, runtimeContext } from "#app/runtime/context.ts";
import { readOrgCookie } from "#app/services/org-context/cookie.ts";
import type { MemberOrg } from "#app/services/org-context/current-org.ts";
import { switchableOrg } from "#app/services/org-context/switch.server.ts";
import type { OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { requireApiUser } from "#app/services/session/api-user.server.ts";
import { AppError, appErrorResponse, isAppError } from "#app/utils/app-error.ts";
import { INVALID_TEXT } from "#app/utils/storable-text.ts";

// Shared edge of the organisation API's resource routes (docs/api.md "Organisations"):
// authenticate → validate → one service call → JSON. Tenant and user come from the token or
// cookie and the URL only, never from the body.

export const badJson = () => new AppError(400, "bad_json", "Could not parse request body as JSON");
export const validationFailed = (message: string) => new AppError(400, "validation_failed", message);

const NO_STORE = { "Cache-Control": "no-store" };

/** Runs a handler and answers AppErrors (thrown by auth, validation or a service) as `{ code, message }`. */
export async function handleApi(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (isAppError(error)) return appErrorResponse(error);
    throw error;
  }
}

export function json(body: unknown, status = 200): Response {
  return Response.json(body, { status, headers: NO_STORE });
}

export function noContent(): Response {
  return new Response(null, { status: 204, headers: NO_STORE });
}

/** The signed-in actor and database for a service call, with the request's address for the audit log. */
export async function serviceArgs(request: Request, context: Readonly<RouterContextProvider>): Promise<OrgServiceArgs> {
  const userId = await requireApiUser(request, context);
  return {
    db: context.get(runtimeContext).db,
    actor: { userId },
    meta: { ip: context.get(requestInfoContext).clientIp, userAgent: request.headers.get("user-agent") },
  };
}

/**
 * The organisation a call is about (SPEC §7): the URL's `:id` when the path has one — a different
 * `x-org-id` header is then ignored — else the `x-org-id` header, else null.
 */
export function currentOrgId(request: Request, urlOrgId?: string): string | null {
  if (urlOrgId !== undefined) return urlOrgId;
  return request.headers.get("x-org-id")?.trim() || null;
}

/**
 * The JSON body validated by `schema`: invalid UTF-8 or malformed JSON is 400 bad_json, text with
 * NUL, control characters or unpaired surrogates 400 invalid_text, another wrong shape 400 validation_failed.
 */
export async function readJson<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  const raw = parseJsonBody(new Uint8Array(await request.arrayBuffer()));
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw invalidInput(parsed.error, "body");
  return parsed.data;
}

/**
 * A request body's bytes as JSON (undefined when empty). Decoded strictly: invalid UTF-8 is
 * 400 bad_json like malformed JSON, never silently stored as U+FFFD (request.text() would).
 */
export function parseJsonBody(bytes: Uint8Array): unknown {
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return text.trim() ? JSON.parse(text) : undefined;
  } catch {
    throw badJson();
  }
}

/** A refused body or query as the API's 400: `invalid_text` (utils/storable-text.ts) or `validation_failed`, naming the field. */
export function invalidInput(error: z.ZodError, where: "body" | "query"): AppError {
  const issue = error.issues[0];
  if (!issue) return validationFailed(`Invalid request ${where}`);
  const field = issue.path.join(".") || where;
  if (issue.message === INVALID_TEXT) {
    return new AppError(400, INVALID_TEXT, `${field}: must be valid Unicode text without NUL or other control characters`);
  }
  return validationFailed(`${field}: ${issue.message}`);
}

/** The language of generated names (the personal organisation's): the API has no URL prefix, so Accept-Language. */
export function apiLocale(request: Request): Locale {
  return pickAcceptLanguage(request.headers.get("accept-language")) ?? DEFAULT_LOCALE;
}

/**
 * The organisation an org-scoped API call works in (SPEC §7): the `x-org-id` header, else the
 * `murmur-org` cookie, checked against the caller's memberships. Missing → 400 org_required;
 * malformed, unknown or another tenant's → 404 org_not_found. Later product APIs start here.
 */
export async function requireApiOrg(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<{ args: OrgServiceArgs; org: MemberOrg }> {
  const args = await serviceArgs(request, context);
  const orgId = currentOrgId(request) ?? readOrgCookie(request.headers.get("cookie"));
  if (!orgId) throw new AppError(400, "org_required", "Send the x-org-id header with the current organization id");
  return { args, org: await switchableOrg(args, orgId) };
}
