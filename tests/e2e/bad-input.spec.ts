import { expect, test } from "@playwright/test";
import { decodeHtml, expectClientError, rawRequest, t } from "./helpers.ts";

// Requests no page can serve: always a clear 4xx, never a 500 or a stack trace.
const BAD_URLS: { name: string; url: string; status: number }[] = [
  { name: "path traversal", url: "/..%2f..%2fetc%2fpasswd", status: 400 },
  { name: "invalid UTF-8 in the query", url: "/login?q=%ff%fe", status: 400 },
  { name: "truncated percent-encoding", url: "/login?q=%E0%A4%A", status: 400 },
  { name: "a NUL byte in the path", url: "/fr/%00", status: 400 },
  { name: "a 10,000-character query", url: `/login?q=${"a".repeat(10_000)}`, status: 414 },
  { name: "a 3,000-character path", url: `/${"a".repeat(3000)}`, status: 404 },
];

for (const { name, url, status } of BAD_URLS) {
  test(`${name} is a ${status}`, async ({ request }) => {
    const response = await request.get(url, { maxRedirects: 0 });
    await expectClientError(response, status);
  });
}

test("a 3,000-character path renders the not-found page", async ({ request }) => {
  const path = `/${"a".repeat(3000)}`;
  const response = await request.get(path);
  expect(response.status()).toBe(404);
  expect(response.headers()["content-type"]).toContain("text/html");
  expect(decodeHtml(await response.text())).toContain(`Page not found: ${path}`);
});

test("a 5 MB body is refused with 413", async ({ baseURL }) => {
  const response = await rawRequest(baseURL ?? "", {
    method: "POST",
    path: "/login",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: Buffer.alloc(5 * 1024 * 1024, 0x61),
    headersFirstMs: 1000,
  });
  await expectClientError(response, 413);
  expect(response.headers["content-type"]).toMatch(/application\/json|text\/html/);
});

test("malformed JSON posted to /api/ping is a 4xx", async ({ request }) => {
  const response = await request.post("/api/ping", {
    data: '{"a":',
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    maxRedirects: 0,
  });
  await expectClientError(response);
});

test("URL errors are explained in the URL's language", async ({ request }) => {
  const response = await request.get("/fr/..%2f", { headers: { "Accept-Language": "fr" } });
  const body = await expectClientError(response, 400);
  expect(decodeHtml(body)).toContain(t("fr", "errors", "http.malformed_url"));
  expect(decodeHtml(body)).toContain("L'adresse est mal formée.");
});
