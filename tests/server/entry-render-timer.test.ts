import { afterEach, expect, it, vi } from "vitest";
import handleRequest, { streamTimeout } from "#app/entry.server.tsx";
import { createLoadContext } from "#app/runtime/load-context.server.ts";
import type { Runtime } from "#app/runtime/runtime.server.ts";
import { parseEnv } from "#app/utils/env.server.ts";
import { createLogger } from "#app/utils/logger.server.ts";

// Issue 25 probe: "a newline in an unmatched path is a 500 plus an uncaught exception 6 s later".
// No route matched, so no middleware gave the request its i18n instance and the render threw; the
// abort timer, started before `abort` existed, then fired into a ReferenceError nobody caught.
// (The request guard now answers such paths 400 malformed_url; this is the render's own half.)

afterEach(() => {
  vi.useRealTimers();
});

it("a render that cannot start fails its request and leaves no timer behind to throw later", async () => {
  vi.useFakeTimers();
  const runtime = { env: parseEnv({ NODE_ENV: "test", LOG_LEVEL: "silent" }), logger: createLogger("silent") } as Runtime;
  const context = createLoadContext(runtime, { requestId: "r", nonce: "n", clientIp: "127.0.0.1" });
  const rendered = handleRequest(
    new Request("http://murmur.test/fr/foo%0Abar"),
    404,
    new Headers(),
    { isSpaMode: false } as never,
    context,
  );
  await expect(rendered).rejects.toThrow();
  expect(vi.getTimerCount()).toBe(0);
  expect(() => vi.advanceTimersByTime(streamTimeout + 5000)).not.toThrow();
});
