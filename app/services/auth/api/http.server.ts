import type { z } from "zod";
import type { AuthRuntime } from "../auth-runtime.server.ts";
import { API_VERSION, errors } from "../errors.server.ts";
import { unstorableReason } from "./storable.server.ts";

/** One call to the auth API, as handlers see it. */
export interface AuthCall {
  request: Request;
  url: URL;
  /** Path below /auth/v1, e.g. "/factors/abc/verify". */
  path: string;
  params: Record<string, string>;
  auth: AuthRuntime;
  ip: string;
  userAgent: string | null;
}

export type AuthHandler = (call: AuthCall) => Promise<Response>;

export interface AuthRoute {
  method: "GET" | "POST" | "PUT" | "DELETE" | "PATCH";
  /** e.g. "/factors/:id/verify" */
  path: string;
  handler: AuthHandler;
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, {
    status,
    headers: { "X-Supabase-Api-Version": API_VERSION, "Cache-Control": "no-store", ...headers },
  });
}

export function noContent(): Response {
  return new Response(null, { status: 204, headers: { "X-Supabase-Api-Version": API_VERSION } });
}

/** The JSON body validated by `schema`: malformed JSON is 400 bad_json, a wrong shape 400 validation_failed. */
export async function readBody<S extends z.ZodType>(call: AuthCall, schema: S): Promise<z.infer<S>> {
  const text = await call.request.text();
  let raw: unknown = {};
  if (text.trim()) {
    try {
      raw = JSON.parse(text);
    } catch {
      throw errors.badJson();
    }
  }
  const unstorable = unstorableReason(raw);
  if (unstorable) throw errors.validation(`body: ${unstorable}`);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw errors.validation(issue ? `${issue.path.join(".") || "body"}: ${issue.message}` : "Invalid request body");
  }
  return parsed.data;
}

export function bearerToken(request: Request): string | null {
  const header = request.headers.get("authorization");
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1] ?? null;
}
