// Issue 25 probe: "a 256 MiB chunked POST to /signup was read whole (1.4 GB more memory); 64 MiB
// to /login, /auth/v1/token, /api/orgs likewise". The production server (server.ts over the build)
// takes, anonymously (/api/orgs as a signed-up trial user), a 256 MiB chunked POST on each: 413 payload_too_large at once, and the server's
// resident memory stays flat.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpWithPractice } from "./api-client.ts";
import { rssOf, streamChunkedPost } from "./chunked-body.ts";
import { built, freePort, type ServerChild, startServerChild } from "./server-child.ts";

const MiB = 1024 * 1024;

describe.skipIf(!built)("body limit on the production server", () => {
  let server: ServerChild;
  let dataDir: string;
  /** A signed-up trial user's token: /api/orgs reads bodies only once the caller is known. */
  let bearer = "";
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "murmur-body-limit-"));
    server = await startServerChild({ dataDir, port: await freePort() });
    bearer = (await signUpWithPractice(server.url, server.output(), "Body Limit")).token;
  }, 180_000);
  afterAll(async () => {
    await server?.terminate();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it.each([
    ["/signup", "application/x-www-form-urlencoded"],
    ["/login", "application/x-www-form-urlencoded"],
    ["/auth/v1/token?grant_type=password", "application/json"],
    ["/api/orgs", "application/json"],
  ])(
    "cuts a 256 MiB chunked POST to %s off with 413, memory flat",
    async (route, type) => {
      const pid = server.child.pid ?? 0;
      const before = await rssOf(pid);
      let peak = before;
      const sampler = setInterval(() => {
        rssOf(pid).then(
          (rss) => {
            peak = Math.max(peak, rss);
          },
          () => {},
        );
      }, 25);
      const res = await streamChunkedPost(`${server.url}${route}`, 256 * MiB, {
        "content-type": type,
        accept: "application/json",
        origin: server.url,
        ...(route === "/api/orgs" ? { authorization: `Bearer ${bearer}` } : {}),
      });
      clearInterval(sampler);
      peak = Math.max(peak, await rssOf(pid));
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body)).toMatchObject({ code: "payload_too_large" });
      expect(res.sent).toBeLessThan(32 * MiB);
      expect(peak - before).toBeLessThan(50 * MiB);
      // The server is still there for everyone else.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      console.info(
        `${route}: sent ${(res.sent / MiB).toFixed(1)} MiB before the 413, server RSS +${((peak - before) / MiB).toFixed(1)} MiB`,
      );
    },
    60_000,
  );
});
