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
