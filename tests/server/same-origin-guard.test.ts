// Issue 17: cookie-carrying state changes from another site are refused before any route runs.
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sameOriginGuard } from "../../server/same-origin-guard.ts";

let base = "";
let close: () => void;

beforeAll(async () => {
  const app = express();
  app.use(sameOriginGuard({ siteUrl: "https://scribe.example.org" }));
  app.all("/{*any}", (_req, res) => res.json({ ok: true }));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

/** A raw POST (node:http): fetch would drop the Referer header, as browsers' fetch does. */
function post(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: { code?: string; message?: string } }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method: "POST", headers }, (res) => {
      let text = "";
      res.on("data", (d) => {
        text += d;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on("error", reject);
    req.end("x=1");
  });
}

describe("same-origin guard", () => {
  it("refuses a cookie-carrying POST from another origin with 403 cross_site_request, translated", async () => {
    const res = await post("/api/visits", { cookie: "sb=1", origin: "https://evil.example.com" });
    expect(res).toEqual({ status: 403, body: { code: "cross_site_request", message: expect.stringContaining("another site") } });
    const fr = await post("/fr/settings", { cookie: "sb=1", origin: "https://evil.example.com", accept: "application/json" });
    expect(fr.body.message).toContain("autre site");
    // Opaque origins (sandboxed frames, data: URLs) and a foreign Referer without Origin too.
    expect((await post("/api/visits", { cookie: "sb=1", origin: "null" })).status).toBe(403);
    expect((await post("/api/visits", { cookie: "sb=1", referer: "https://evil.example.com/page" })).status).toBe(403);
  });

  it("lets our own pages through: the request's own origin or SITE_URL's", async () => {
    expect((await post("/api/visits", { cookie: "sb=1", origin: base })).status).toBe(200);
    expect((await post("/api/visits", { cookie: "sb=1", origin: "https://scribe.example.org" })).status).toBe(200);
    expect((await post("/api/visits", { cookie: "sb=1", referer: `${base}/transcribing` })).status).toBe(200);
  });

  it("leaves alone what cannot be forged through a victim's browser: no cookie, no Origin/Referer, safe methods, the auth API", async () => {
    expect((await post("/api/visits", { origin: "https://evil.example.com" })).status).toBe(200);
    expect((await post("/api/visits", { cookie: "sb=1" })).status).toBe(200);
    expect((await post("/auth/v1/token", { cookie: "sb=1", origin: "https://other-app.example.com" })).status).toBe(200);
    const get = await fetch(`${base}/dashboard`, { headers: { cookie: "sb=1", origin: "https://evil.example.com" } });
    expect(get.status).toBe(200);
  });
});
