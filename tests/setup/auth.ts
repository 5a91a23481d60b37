import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { sql } from "kysely";
import type { Database } from "#app/db/database.server.ts";
import { handleAuthRequest } from "#app/services/auth/api/router.server.ts";
import { type AuthRuntime, startAuthRuntime } from "#app/services/auth/auth-runtime.server.ts";
import { parseEnv } from "#app/utils/env.server.ts";
import { createLogger } from "#app/utils/logger.server.ts";
import { createPgliteTestDatabase } from "./databases.ts";

export const TEST_SITE_URL = "http://murmur.test";

export interface TestAuth {
  db: Database;
  auth: AuthRuntime;
  /** fetch that answers /auth/v1 requests in-process, through the same router as the server. */
  fetch: typeof fetch;
  /** The official supabase-js client, pointed at the embedded API. */
  client(options?: { flowType?: "implicit" | "pkce"; ip?: string }): SupabaseClient;
  /** Admin client with the service-role key. */
  admin(): SupabaseClient;
  /** Emails and SMS queued so far, newest last. */
  outbox(): Promise<{ channel: string; recipient: string; template: string; subject: string | null; text_body: string }[]>;
  close(): Promise<void>;
}

/** An embedded auth API over a fresh migrated database, with env overrides (e.g. autoconfirm). */
export async function createTestAuth(env: Record<string, string> = {}): Promise<TestAuth> {
  const db = await createPgliteTestDatabase();
  const parsed = parseEnv({ NODE_ENV: "test", LOG_LEVEL: "silent", SITE_URL: TEST_SITE_URL, ...env });
  const auth = await startAuthRuntime(parsed, db, createLogger("silent"));
  const makeFetch =
    (ip: string): typeof fetch =>
    async (input, init) =>
      handleAuthRequest(new Request(input, init), auth, { ip, userAgent: "vitest" });
  const fetchImpl = makeFetch("127.0.0.1");
  const memoryStorage = () => {
    const store = new Map<string, string>();
    return {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    };
  };
  return {
    db,
    auth,
    fetch: fetchImpl,
    client(options = {}) {
      return createClient(TEST_SITE_URL, auth.keys.anonKey, {
        auth: {
          flowType: options.flowType ?? "implicit",
          persistSession: true,
          autoRefreshToken: false,
          detectSessionInUrl: false,
          storage: memoryStorage(),
        },
        global: { fetch: options.ip ? makeFetch(options.ip) : fetchImpl },
      });
    },
    admin() {
      return createClient(TEST_SITE_URL, auth.keys.serviceRoleKey, {
        auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
        global: { fetch: fetchImpl },
      });
    },
    async outbox() {
      const { rows } = await sql<{
        channel: string;
        recipient: string;
        template: string;
        subject: string | null;
        text_body: string;
      }>`
        select channel, recipient, template, subject, text_body from auth.outbox order by created_at, id`.execute(db.kysely);
      return rows;
    },
    close: () => db.close(),
  };
}

// ---- Factories for tests that need a signed-in user before (or without) the signup endpoints ----

import { insertUser } from "#app/services/auth/admin/users.server.ts";
import type { AuthRoute } from "#app/services/auth/api/http.server.ts";
import { routes as authRoutes } from "#app/services/auth/api/routes.server.ts";
import { hashPassword } from "#app/services/auth/passwords.server.ts";
import { createSession } from "#app/services/auth/sessions.server.ts";
import type { UserRow } from "#app/services/auth/users.server.ts";

/** A confirmed email user with a password, inserted directly (as the admin API creates one). */
export async function createConfirmedUser(t: TestAuth, email: string, password: string): Promise<UserRow> {
  const passwordHash = await hashPassword(password);
  return t.db.kysely.transaction().execute((trx) =>
    insertUser(trx, {
      email: email.trim().toLowerCase(),
      phone: null,
      passwordHash,
      emailConfirmed: true,
      phoneConfirmed: false,
      userMetadata: {},
      appMetadata: null,
      role: null,
      bannedUntil: null,
    }),
  );
}

/**
 * A supabase-js client signed in as `user`: through POST /token when the password grant exists,
 * otherwise with a session from createSession placed in the client's storage (what setSession
 * would do, without needing GET /user).
 */
export async function signedInClient(
  t: TestAuth,
  user: UserRow,
  password: string,
  options: { ip?: string } = {},
): Promise<SupabaseClient> {
  const ip = options.ip ?? "127.0.0.1";
  const store = new Map<string, string>();
  const client = createClient(TEST_SITE_URL, t.auth.keys.anonKey, {
    auth: {
      flowType: "implicit",
      persistSession: true,
      autoRefreshToken: false,
      detectSessionInUrl: false,
      storageKey: SIGNED_IN_STORAGE_KEY,
      storage: {
        getItem: (k: string) => store.get(k) ?? null,
        setItem: (k: string, v: string) => void store.set(k, v),
        removeItem: (k: string) => void store.delete(k),
      },
    },
    global: { fetch: async (input, init) => handleAuthRequest(new Request(input, init), t.auth, { ip, userAgent: "vitest" }) },
  });
  if (hasAuthRoute("POST", "/token")) {
    const { error } = await client.auth.signInWithPassword({ email: user.email ?? "", password });
    if (error) throw error;
  } else {
    const session = await createSession(t.auth, user, { method: "password", ip, userAgent: "vitest" });
    store.set(SIGNED_IN_STORAGE_KEY, JSON.stringify(session));
  }
  return client;
}

const SIGNED_IN_STORAGE_KEY = "murmur-test-auth";

/** Whether an endpoint exists yet, for tests that can use it once another part of the API lands. */
export function hasAuthRoute(method: AuthRoute["method"], path: string): boolean {
  return authRoutes.some((r) => r.method === method && r.path === path);
}

// ---- Reading what the core auth flows emailed, and following their links ----

export interface SentEmail {
  template: string;
  subject: string | null;
  text: string;
  /** The `${authUrl}/verify?...` link in the email, if any. */
  link: string | null;
  /** The 6-digit code in the email, if any. */
  code: string | null;
}

/** Every email queued to `to`, oldest first. */
export async function emailsTo(t: TestAuth, to: string): Promise<SentEmail[]> {
  const { rows } = await sql<{ template: string; subject: string | null; text_body: string }>`
    select template, subject, text_body from auth.outbox
    where channel = 'email' and lower(recipient) = lower(${to})
    order by created_at, id`.execute(t.db.kysely);
  return rows.map((r) => {
    const link = r.text_body.match(/https?:\/\/\S+\/auth\/v1\/verify\?\S+/)?.[0] ?? null;
    const code = r.text_body.replace(link ?? "", "").match(/\b\d{6}\b/)?.[0] ?? null;
    return { template: r.template, subject: r.subject, text: r.text_body, link, code };
  });
}

/** The newest email queued to `to`; throws when there is none. */
export async function lastEmailTo(t: TestAuth, to: string): Promise<SentEmail> {
  const all = await emailsTo(t, to);
  const last = all.at(-1);
  if (!last) throw new Error(`no email to ${to}`);
  return last;
}

/** Opens an email link as a browser would, without following the redirect it answers with. */
export async function openLink(
  t: TestAuth,
  link: string,
): Promise<{ status: number; location: string; query: URLSearchParams; fragment: URLSearchParams }> {
  const res = await t.fetch(link, { redirect: "manual" });
  const location = res.headers.get("location") ?? "";
  const url = location ? new URL(location) : null;
  return {
    status: res.status,
    location,
    query: url ? url.searchParams : new URLSearchParams(),
    fragment: new URLSearchParams(url ? url.hash.slice(1) : ""),
  };
}
