import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A loopback stand-in for Sentry's ingest API. Sentry's Node transport sends through its own
 * un-instrumented http client, which request interceptors (msw) cannot see, so a real socket is used.
 */
export async function startFakeSentry(): Promise<{ dsn: string; envelopes: string[]; close(): Promise<void> }> {
  const envelopes: string[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      if (req.method === "POST" && req.url?.startsWith("/api/4242/envelope/")) envelopes.push(body);
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    dsn: `http://publickey@127.0.0.1:${port}/4242`,
    envelopes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
