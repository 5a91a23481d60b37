import type { RouterContextProvider } from "react-router";
import type { Database } from "#app/db/database.server.ts";
import { createLoadContext } from "#app/runtime/load-context.server.ts";
import type { Runtime } from "#app/runtime/runtime.server.ts";
import type { AuthRuntime } from "#app/services/auth/auth-runtime.server.ts";
import { type SessionUser, userContext } from "#app/services/session/user-context.ts";
import { parseEnv } from "#app/utils/env.server.ts";
import { createLogger } from "#app/utils/logger.server.ts";

/** A request context as server.ts builds it, over a test database, optionally signed in. */
export function createTestContext(
  options: { db?: Database; auth?: AuthRuntime; user?: SessionUser } = {},
): RouterContextProvider {
  const runtime = {
    env: parseEnv({ NODE_ENV: "test", LOG_LEVEL: "silent" }),
    db: options.db as Database,
    logger: createLogger("silent"),
    auth: options.auth as AuthRuntime,
    close: async () => {},
  } satisfies Runtime;
  const context = createLoadContext(runtime, { requestId: "test", nonce: "test-nonce", clientIp: "127.0.0.1" });
  if (options.user) context.set(userContext, options.user);
  return context;
}

/** Runs a loader and returns the Response it returned or threw. */
export async function responseOf(run: () => unknown): Promise<Response> {
  try {
    const result = await run();
    if (result instanceof Response) return result;
    throw new Error(`expected a Response, got ${JSON.stringify(result)}`);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
