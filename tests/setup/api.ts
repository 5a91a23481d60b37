import { randomUUID } from "node:crypto";
import type { RouterContextProvider } from "react-router";
import type { Database } from "#app/db/database.server.ts";
import type { OrgRole } from "#app/db/schema.ts";
import { insertUser } from "#app/services/auth/admin/users.server.ts";
import { type AuthRuntime, startAuthRuntime } from "#app/services/auth/auth-runtime.server.ts";
import { createSession } from "#app/services/auth/sessions.server.ts";
import { parseEnv } from "#app/utils/env.server.ts";
import { createLogger } from "#app/utils/logger.server.ts";
import { TEST_SITE_URL } from "./auth.ts";
import { createTestContext, responseOf } from "./context.ts";
import type { DatabaseTarget } from "./databases.ts";

// A harness for the HTTP API's resource routes: the embedded auth runtime over the target database
// (PGlite or PostgreSQL), users with real bearer access tokens, and a way to call a route module's
// loader/action with a real Request and a context built like server.ts builds it.

export interface ApiUser {
  id: string;
  email: string;
  /** A real ES256 access token of a live auth session. */
  token: string;
  sessionId: string;
}

export interface ApiHarness {
  db: Database;
  auth: AuthRuntime;
  /** A confirmed user with a live session. */
  user(options?: { email?: string; fullName?: string }): Promise<ApiUser>;
  context(): RouterContextProvider;
  close(): Promise<void>;
}

export async function openApiHarness(target: DatabaseTarget): Promise<ApiHarness> {
  const db = await target.open();
  const env = parseEnv({ NODE_ENV: "test", LOG_LEVEL: "silent", SITE_URL: TEST_SITE_URL });
  const auth = await startAuthRuntime(env, db, createLogger("silent"));
  return {
    db,
    auth,
    async user(options = {}) {
      const email = options.email ?? `api-${randomUUID()}@example.test`;
      const row = await db.kysely.transaction().execute((trx) =>
        insertUser(trx, {
          email: email.toLowerCase(),
          phone: null,
          passwordHash: null,
          emailConfirmed: true,
          phoneConfirmed: false,
          userMetadata: options.fullName ? { full_name: options.fullName } : {},
          appMetadata: null,
          role: null,
          bannedUntil: null,
        }),
      );
      const session = await createSession(auth, row, { method: "password", ip: "127.0.0.1", userAgent: "vitest" });
      const claims = JSON.parse(Buffer.from(session.access_token.split(".")[1] ?? "", "base64url").toString()) as {
        session_id: string;
      };
      return { id: row.id, email: row.email ?? email, token: session.access_token, sessionId: claims.session_id };
    },
    context: () => createTestContext({ db, auth }),
    async close() {
      await auth.close?.();
      await db.close();
    },
  };
}

/** A route module as the API tests see it: a loader and an action taking React Router's args. */
export interface RouteModule {
  loader?: (args: never) => unknown;
  action?: (args: never) => unknown;
}

export interface ApiCall {
  method: string;
  path: string;
  params?: Record<string, string>;
  /** A bearer token, or null for anonymous. */
  token?: string | null;
  /** A JSON value, or a raw string sent as is. */
  body?: unknown;
  headers?: Record<string, string>;
  context?: RouterContextProvider;
}

/** Calls the route module the way React Router would: GET/HEAD → loader, anything else → action. */
export async function callRoute(h: ApiHarness, mod: RouteModule, call: ApiCall): Promise<{ status: number; body: unknown }> {
  const headers = new Headers(call.headers);
  if (call.token) headers.set("authorization", `Bearer ${call.token}`);
  let body: string | undefined;
  if (call.body !== undefined) {
    body = typeof call.body === "string" ? call.body : JSON.stringify(call.body);
    headers.set("content-type", "application/json");
  }
  const request = new Request(`${TEST_SITE_URL}${call.path}`, { method: call.method, headers, body });
  const context = call.context ?? h.context();
  const handler = call.method === "GET" || call.method === "HEAD" ? mod.loader : mod.action;
  if (!handler) throw new Error(`no handler for ${call.method} ${call.path}`);
  const args = { request, context, params: call.params ?? {} } as never;
  const response = await responseOf(() => handler(args));
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** An organisation with one API user per role (org A of the isolation matrix). */
export async function orgWithEveryRole(
  h: ApiHarness,
  createOrg: (db: Database, members: { userId: string; role: OrgRole }[]) => Promise<string>,
): Promise<{ orgId: string; users: Record<OrgRole, ApiUser> }> {
  const users = {
    owner: await h.user(),
    admin: await h.user(),
    clinician: await h.user(),
    staff: await h.user(),
  };
  const orgId = await createOrg(
    h.db,
    (Object.keys(users) as OrgRole[]).map((role) => ({ userId: users[role].id, role })),
  );
  return { orgId, users };
}
