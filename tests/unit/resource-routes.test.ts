import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "#app/db/database.server.ts";
import { NAMESPACES } from "#app/i18n/config.ts";
import { loader as ping } from "#app/routes/resources/api-ping.ts";
import { loader as buildsLatest } from "#app/routes/resources/builds-latest.ts";
import { loader as healthz } from "#app/routes/resources/healthz.ts";
import { loader as messages } from "#app/routes/resources/i18n-messages.ts";
import { loader as readyz } from "#app/routes/resources/readyz.ts";
import { loader as setLanguage } from "#app/routes/resources/set-language.ts";
import { createTestContext, responseOf } from "#tests/setup/context.ts";
import { createPgliteTestDatabase } from "#tests/setup/databases.ts";

// Loaders are called the way React Router calls them; the extra args are not read by these routes.
type AnyArgs = Parameters<typeof messages>[0];
const args = (url: string, extra: Partial<AnyArgs> = {}) =>
  ({
    request: new Request(`http://murmur.test${url}`, extra.request),
    params: {},
    context: createTestContext(),
    ...extra,
  }) as AnyArgs;

describe("GET /_i18n/{locale}/messages.json", () => {
  it("serves every namespace of a locale with an ETag, and 304 when unchanged", async () => {
    const res = await responseOf(() => messages(args("/_i18n/fr/messages.json", { params: { locale: "fr" } })));
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, Record<string, unknown>>;
    expect(Object.keys(body).sort()).toEqual([...NAMESPACES].sort());
    expect(Object.keys(body)).toContain("orgSettings");
    expect((body.common?.nav as Record<string, string> | undefined)?.dashboard).toBe("Tableau de bord");
    const etag = res.headers.get("etag");
    expect(etag).toMatch(/^".+"$/);
    const again = await responseOf(() =>
      messages(
        args("/_i18n/fr/messages.json", {
          params: { locale: "fr" },
          request: new Request("http://murmur.test/_i18n/fr/messages.json", { headers: { "If-None-Match": etag ?? "" } }),
        }),
      ),
    );
    expect(again.status).toBe(304);
  });

  it("answers 404 with a stable code for an unknown locale", async () => {
    const res = await responseOf(() => messages(args("/_i18n/de/messages.json", { params: { locale: "de" } })));
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "unknown_locale" });
  });

  it("different locales have different ETags", async () => {
    const en = await responseOf(() => messages(args("/", { params: { locale: "en" } })));
    const es = await responseOf(() => messages(args("/", { params: { locale: "es" } })));
    expect(en.headers.get("etag")).not.toBe(es.headers.get("etag"));
  });
});

describe("GET /_lang (language switcher)", () => {
  const call = (qs: string) => responseOf(() => setLanguage(args(`/_lang?${qs}`) as never));

  it("stores the choice and returns to the page in that language", async () => {
    const res = await call("lng=fr&redirectTo=%2Ffr%2Flogin%3Fx%3D1");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/fr/login?x=1");
    expect(res.headers.get("set-cookie")).toBe("i18n_redirected=fr; Path=/; Max-Age=31536000; SameSite=Lax");
  });

  it("falls back to the language's home when the target is in another language", async () => {
    const res = await call("lng=es&redirectTo=%2Ffr%2Flogin");
    expect(res.headers.get("location")).toBe("/es");
  });

  it.each([
    "lng=de",
    "lng=fr&redirectTo=%2F%2Fevil.example",
    "lng=fr&redirectTo=https%3A%2F%2Fevil.example",
    "lng=fr&redirectTo=%2F%5Cevil",
  ])("rejects %s with a 400", async (qs) => {
    const res = await call(qs);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "invalid_language_request" });
  });
});

describe("health, version and ping", () => {
  let db: Database;
  beforeAll(async () => {
    db = await createPgliteTestDatabase();
  });
  afterAll(() => db.close());

  it("/readyz reports the database", async () => {
    const res = await responseOf(() => readyz({ ...args("/readyz"), context: createTestContext({ db }) } as never));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", database: "ok" });
  });

  it("/readyz is 503 when the database is gone", async () => {
    const gone = await createPgliteTestDatabase();
    await gone.close();
    const res = await responseOf(() => readyz({ ...args("/readyz"), context: createTestContext({ db: gone }) } as never));
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ database: "unreachable" });
  });

  it("/healthz, /builds/latest.json and /api/ping", async () => {
    expect(await (await responseOf(() => healthz())).json()).toMatchObject({ status: "ok" });
    const build = await responseOf(() => buildsLatest());
    expect(await build.json()).toEqual({ id: "test-build", timestamp: "2026-01-01T00:00:00.000Z" });
    expect(build.headers.get("cache-control")).toBe("no-store");
    const pong = await responseOf(() => ping());
    expect(pong.status).toBe(204);
    expect(pong.headers.get("cache-control")).toBe("no-store");
  });
});
