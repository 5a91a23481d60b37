import { expect, test } from "@playwright/test";

test("HEAD /api/ping answers 204 and is never cached", async ({ request }) => {
  const response = await request.head("/api/ping");
  expect(response.status()).toBe(204);
  expect(response.headers()["cache-control"]).toBe("no-store");
});

test("/builds/latest.json names the build the pages were rendered with", async ({ request }) => {
  const response = await request.get("/builds/latest.json");
  expect(response.status()).toBe(200);
  const build = (await response.json()) as { id: unknown; timestamp: unknown };
  expect(typeof build.id).toBe("string");
  expect(build.id).not.toBe("");
  expect(typeof build.timestamp).toBe("string");
  expect(new Date(build.timestamp as string).toISOString()).toBe(build.timestamp);

  const html = await (await request.get("/login")).text();
  const meta = /<meta name="murmur-build" content="([^"]*)"/.exec(html);
  expect(meta?.[1]).toBe(build.id);
});

test("/healthz answers ok", async ({ request }) => {
  const response = await request.get("/healthz");
  expect(response.status()).toBe(200);
  expect(await response.json()).toMatchObject({ status: "ok" });
});

test("/readyz reports the database as ok", async ({ request }) => {
  const response = await request.get("/readyz");
  expect(response.status()).toBe(200);
  expect(await response.json()).toMatchObject({ database: "ok" });
});

test("/_i18n/fr/messages.json has every namespace and revalidates with its ETag", async ({ request }) => {
  const response = await request.get("/_i18n/fr/messages.json");
  expect(response.status()).toBe(200);
  const messages = (await response.json()) as Record<string, unknown>;
  for (const ns of ["common", "marketing", "auth", "app", "errors"]) {
    expect(typeof messages[ns], `namespace ${ns}`).toBe("object");
  }
  const etag = response.headers().etag;
  expect(etag).toBeTruthy();

  const again = await request.get("/_i18n/fr/messages.json", { headers: { "If-None-Match": etag ?? "" } });
  expect(again.status()).toBe(304);
});

test("/_i18n/de/messages.json is a 404", async ({ request }) => {
  const response = await request.get("/_i18n/de/messages.json");
  expect(response.status()).toBe(404);
});
