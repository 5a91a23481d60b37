import { expect, test } from "@playwright/test";

test("HTML pages carry the security headers", async ({ request }) => {
  const response = await request.get("/login");
  expect(response.status()).toBe(200);
  const headers = response.headers();
  const csp = headers["content-security-policy"] ?? "";
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toMatch(/script-src [^;]*'nonce-[A-Za-z0-9+/=_-]+'/);
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBeTruthy();
  expect(headers["x-request-id"]).toBeTruthy();
});

test("HTML is gzip-compressed when the client accepts it", async ({ request }) => {
  const response = await request.get("/login", { headers: { "Accept-Encoding": "gzip" } });
  expect(response.status()).toBe(200);
  expect(response.headers()["content-encoding"]).toBe("gzip");
  expect(await response.text()).toContain("<html");
});

test("hashed assets are cached as immutable", async ({ request }) => {
  const html = await (await request.get("/login")).text();
  const hrefs = [
    ...html.matchAll(/<link rel="modulepreload" href="(\/assets\/[^"]+)"/g),
    ...html.matchAll(/<script type="module"[^>]* src="(\/assets\/[^"]+)"/g),
    ...html.matchAll(/import\s*(?:[^"']*from\s*)?["'](\/assets\/[^"']+\.js)["']/g),
  ].map((m) => m[1]);
  const asset = hrefs[0];
  expect(asset, "an /assets/ script referenced by /login").toBeDefined();

  const response = await request.get(asset ?? "");
  expect(response.status()).toBe(200);
  expect(response.headers()["cache-control"]).toContain("immutable");
});
