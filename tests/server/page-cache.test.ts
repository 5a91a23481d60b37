// Issue 17 "Throughput": the anonymous page cache (server/page-cache.ts, ADR 0033) serves a copy of
// an opted-in page to visitors without cookies, with this response's own nonce, and nothing else.
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_CACHE_HEADER, pageCache } from "../../server/page-cache.ts";

let base = "";
let close: () => void;
let clock = 1_000_000;
const renders: Record<string, number> = {};

function page(name: string, options: { marker?: boolean; status?: number; cookie?: boolean; chunks?: number } = {}) {
  return (_req: express.Request, res: express.Response) => {
    renders[name] = (renders[name] ?? 0) + 1;
    const nonce = res.locals.nonce as string;
    if (options.marker !== false) res.setHeader(PAGE_CACHE_HEADER, "anonymous");
    if (options.cookie) res.setHeader("Set-Cookie", "flash=1; Path=/");
    res.status(options.status ?? 200).type("html");
    // Streamed in pieces, as React Router's SSR writes a page.
    const html = `<!doctype html><script nonce="${nonce}">1</script><p>${name} render ${renders[name]}</p><link nonce="${nonce}">`;
    const pieces = options.chunks ?? 3;
    const size = Math.ceil(html.length / pieces);
    for (let i = 0; i < pieces - 1; i++) res.write(html.slice(i * size, (i + 1) * size));
    res.end(html.slice((pieces - 1) * size));
  };
}

beforeAll(async () => {
  const app = express();
  app.use((_req, res, next) => {
    res.locals.nonce = randomBytes(16).toString("base64");
    res.setHeader("Content-Security-Policy", `script-src 'nonce-${res.locals.nonce}'`);
    next();
  });
  app.use(compression({ level: 1, threshold: 0 }));
  app.use(pageCache({ ttlMs: 10_000, now: () => clock }));
  app.get("/login", page("login"));
  app.get("/plain", page("plain", { marker: false }));
  app.get("/cookie", page("cookie", { cookie: true }));
  app.get("/missing", page("missing", { status: 404 }));
  app.get("/one-piece", page("one-piece", { chunks: 1 }));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(base + path, { headers });
  const body = await res.text();
  const csp = res.headers.get("content-security-policy") ?? "";
  const nonce = /nonce-([^']+)/.exec(csp)?.[1] ?? "";
  return { status: res.status, body, nonce, headers: res.headers };
}

describe("anonymous page cache", () => {
  it("serves a visitor without cookies a copy carrying this response's own nonce", async () => {
    const first = await get("/login");
    const second = await get("/login");
    expect(renders.login).toBe(1);
    expect(first.headers.get("x-page-cache")).toBe("miss");
    expect(second.headers.get("x-page-cache")).toBe("hit");
    expect(second.body).toContain("login render 1");
    expect(second.nonce).not.toBe(first.nonce);
    // Every nonce in the copy is the new one: the browser would refuse a script with the old.
    expect(second.body.match(/nonce="([^"]+)"/g)).toEqual([`nonce="${second.nonce}"`, `nonce="${second.nonce}"`]);
    expect(second.body).not.toContain(first.nonce);
    // The route's marker never leaves the server.
    expect(first.headers.has(PAGE_CACHE_HEADER)).toBe(false);
    expect(second.headers.has(PAGE_CACHE_HEADER)).toBe(false);
  });

  it("renders for a visitor with a cookie, an Authorization header or a query string, and never shows them the marker", async () => {
    const before = renders.login ?? 0;
    for (const [path, headers] of [
      ["/login", { cookie: "sb-access-token=x" }],
      ["/login", { authorization: "Bearer x" }],
      ["/login?next=/dashboard", {}],
    ] as const) {
      const res = await get(path, headers);
      expect(res.headers.has("x-page-cache")).toBe(false);
      expect(res.headers.has(PAGE_CACHE_HEADER)).toBe(false);
    }
    expect(renders.login).toBe(before + 3);
  });

  it("keeps no copy of a page that did not opt in, sets a cookie or is not a 200", async () => {
    for (const path of ["/plain", "/cookie", "/missing"]) {
      await get(path);
      const again = await get(path);
      expect(again.headers.get("x-page-cache")).toBeNull();
      expect(renders[path.slice(1)]).toBe(2);
    }
  });

  it("renders again once the copy is older than the TTL", async () => {
    await get("/one-piece");
    clock += 9_999;
    expect((await get("/one-piece")).body).toContain("render 1");
    clock += 2;
    expect((await get("/one-piece")).body).toContain("render 2");
    expect(renders["one-piece"]).toBe(2);
  });

  it("compresses a copy like a rendered page", async () => {
    await get("/login");
    const res = await fetch(`${base}/login`, { headers: { "accept-encoding": "gzip" }, decompress: false } as RequestInit);
    // undici decompresses by itself; either way the body must be the whole page.
    const raw = Buffer.from(await res.arrayBuffer());
    const body = res.headers.get("content-encoding") === "gzip" && raw[0] === 0x1f ? gunzipSync(raw).toString() : raw.toString();
    expect(body).toMatch(/^<!doctype html>.*<\/p><link nonce="[^"]+">$/);
  });

  it("does nothing when the TTL is 0", async () => {
    const app = express();
    let n = 0;
    app.use(pageCache({ ttlMs: 0 }));
    app.get("/p", (_req, res) => {
      n++;
      res.setHeader(PAGE_CACHE_HEADER, "anonymous");
      res.type("html").send("x");
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/p`;
    await fetch(url);
    const res = await fetch(url);
    server.close();
    expect(n).toBe(2);
    expect(res.headers.has(PAGE_CACHE_HEADER)).toBe(false);
  });
});
