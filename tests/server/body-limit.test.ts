// Issue 25: a body is limited by the bytes read, not by what its Content-Length claims — a
// chunked body has none. A real HTTP server in this process, with the request guard as server.ts
// mounts it and a handler that reads bodies exactly as React Router's Express adapter does
// (a web Request over the Node stream, then formData/json), takes 256 MiB chunked POSTs to the
// routes the probe used, anonymous: each gets 413 payload_too_large and memory stays flat.
import type { AddressInfo } from "node:net";
import { createReadableStreamFromReadable } from "@react-router/node";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardRequest } from "../../server/request-guard.ts";
import { requestIdentity } from "../../server/request-identity.ts";
import { streamChunkedPost } from "./chunked-body.ts";

const MiB = 1024 * 1024;
const LIMIT = 1 * MiB;
let base = "";
let close: () => void;
/** What each handler's body reader ended with: a parsed body is a cut body mistaken for whole. */
const outcomes: { path: string; outcome: "parsed" | "failed"; bytes?: number }[] = [];

beforeAll(async () => {
  const app = express();
  app.use(requestIdentity());
  app.use(guardRequest({ maxBodyBytes: LIMIT }));
  app.all("/{*any}", async (req, res) => {
    if (req.method === "GET") return void res.json({ ok: true });
    const request = new Request(`http://localhost${req.originalUrl}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: createReadableStreamFromReadable(req),
      duplex: "half",
    } as RequestInit);
    try {
      const text = await request.text();
      outcomes.push({ path: req.path, outcome: "parsed", bytes: text.length });
      if (!res.headersSent) res.json({ ok: true, bytes: text.length });
    } catch {
      outcomes.push({ path: req.path, outcome: "failed" });
      if (!res.headersSent) res.status(500).json({ code: "internal_error" });
    }
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

describe("body limit by bytes read", () => {
  it.each([
    ["/signup", "application/x-www-form-urlencoded"],
    ["/login", "application/x-www-form-urlencoded"],
    ["/auth/v1/token?grant_type=password", "application/json"],
    ["/api/orgs", "application/json"],
  ])("a 256 MiB chunked POST to %s is cut off with 413 and memory stays flat", async (path, type) => {
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const res = await streamChunkedPost(`${base}${path}`, 256 * MiB, { "content-type": type, accept: "application/json" });
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ code: "payload_too_large", message: "The request is too large." });
    // The answer came once the limit was passed, not after the whole body.
    expect(res.sent).toBeLessThan(32 * MiB);
    expect(peak - before).toBeLessThan(50 * MiB);
    // The reader saw an error, never a cut body it could take for a whole one.
    await new Promise((r) => setTimeout(r, 400));
    expect(outcomes.filter((o) => o.path === path.split("?")[0])).toEqual([{ path: path.split("?")[0], outcome: "failed" }]);
  });

  it("lets a chunked body under the limit through whole", async () => {
    const res = await streamChunkedPost(`${base}/api/patients`, LIMIT - 64 * 1024, { accept: "application/json" });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ ok: true, bytes: LIMIT - 64 * 1024 });
  });

  it("leaves audio routes to their own, larger limits", async () => {
    const res = await streamChunkedPost(`${base}/api/visits/v1/audio/chunks/0`, 3 * MiB, { accept: "application/json" });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).bytes).toBe(3 * MiB);
  });

  it("answers a French page's form in French", async () => {
    const res = await streamChunkedPost(`${base}/fr/signup`, 4 * MiB, { accept: "application/json" });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).message).toBe("La requête est trop volumineuse.");
  });
});

describe("control characters in the path", () => {
  it("answers a newline, carriage return or other control character in a path with 400 malformed_url", async () => {
    for (const path of ["/foo%0Abar", "/fr/foo%0Abar", "/x%0D%0ASet-Cookie:%20a=1", "/a%7Fb", "/a%1Bb"]) {
      const res = await fetch(`${base}${path}`, { headers: { accept: "application/json" } });
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as { code: string }).code, path).toBe("malformed_url");
    }
    expect((await fetch(`${base}/foo%20bar`)).status).toBe(200);
  });
});

describe("Host header", () => {
  it("answers a missing or malformed Host with 400, not 500", async () => {
    const net = await import("node:net");
    const raw = (request: string) =>
      new Promise<string>((resolve) => {
        const socket = net.connect(Number(new URL(base).port), "127.0.0.1", () => socket.end(request));
        let data = "";
        socket.on("data", (d) => {
          data += d;
        });
        socket.on("close", () => resolve(data));
      });
    expect(await raw("GET /login HTTP/1.0\r\n\r\n")).toMatch(/^HTTP\/1\.1 400/);
    expect(await raw("GET /login HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n")).toMatch(/^HTTP\/1\.1 400/);
    expect(await raw("GET /login HTTP/1.1\r\nHost: exa<mple>.org\r\nConnection: close\r\n\r\n")).toMatch(/^HTTP\/1\.1 400/);
    expect(await raw("GET /login HTTP/1.1\r\nHost: localhost:3000\r\nConnection: close\r\n\r\n")).toMatch(/^HTTP\/1\.1 200/);
  });
});
