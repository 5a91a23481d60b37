import { describe, expect, it } from "vitest";
import * as entry from "#app/routes/index.tsx";
import * as setLanguage from "#app/routes/resources/set-language.ts";
import * as setPrefs from "#app/routes/resources/set-prefs.ts";
import { createLoadContext } from "#app/runtime/load-context.server.ts";
import type { Runtime } from "#app/runtime/runtime.server.ts";
import { parseEnv } from "#app/utils/env.server.ts";
import { createLogger } from "#app/utils/logger.server.ts";
import { responseOf } from "#tests/setup/context.ts";

// Issue 25 probe: "with SITE_URL=https the organisation, language and theme cookies are not
// Secure". Behind a TLS proxy the app does not trust, requests reach it as http; SITE_URL says the
// site is served over HTTPS, and every cookie it sets is then Secure, as the session cookie was.

function contextWith(siteUrl: string) {
  const runtime = {
    env: parseEnv({ NODE_ENV: "test", LOG_LEVEL: "silent", SITE_URL: siteUrl }),
    logger: createLogger("silent"),
  } as Runtime;
  return createLoadContext(runtime, { requestId: "r", nonce: "n", clientIp: "127.0.0.1" });
}

const cookiesOf = (res: Response) => res.headers.getSetCookie();

describe("preference cookies behind an https SITE_URL", () => {
  it("marks the theme and sidebar cookies Secure", async () => {
    const run = (site: string) =>
      responseOf(() =>
        setPrefs.action({
          request: new Request("http://murmur.test/_prefs", {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: "theme=dark&sidebar=collapsed",
          }),
          context: contextWith(site),
          params: {},
        } as never),
      );
    const secure = cookiesOf(await run("https://murmur.test"));
    expect(secure).toHaveLength(2);
    for (const c of secure) expect(c).toMatch(/; Secure$/);
    for (const c of cookiesOf(await run("http://murmur.test"))) expect(c).not.toContain("Secure");
  });

  it("marks the language cookie Secure, from the switcher and from the entry redirect", async () => {
    const switched = await responseOf(() =>
      setLanguage.loader({
        request: new Request("http://murmur.test/_lang?lng=fr"),
        context: contextWith("https://murmur.test"),
        params: {},
      } as never),
    );
    expect(cookiesOf(switched)[0]).toMatch(/^i18n_redirected=fr;.*; Secure$/);
    const context = contextWith("https://murmur.test");
    const entered = await responseOf(() =>
      entry.loader({
        request: new Request("http://murmur.test/", { headers: { "accept-language": "es" } }),
        context,
        params: {},
      } as never),
    );
    expect(cookiesOf(entered)[0]).toMatch(/; Secure$/);
  });
});
