import http from "node:http";

export interface WorkerHttpOptions {
  /** True when the database answers (the same probe as the web process's /readyz). */
  ready: () => Promise<boolean>;
  build: string;
}

const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store", ...headers });
  res.end(JSON.stringify(body));
};

/**
 * A worker process (MURMUR_ROLE=worker, ADR 0038) serves no page and no API: only the liveness
 * and readiness probes an orchestrator or a reverse proxy's health check asks for, with the same
 * answers as a web process's. Anything else is 404, so a worker put behind the proxy by mistake
 * serves nothing a user could reach. No request body is ever read.
 */
export function createWorkerHttpServer(options: WorkerHttpOptions): http.Server {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/healthz" && path !== "/readyz") {
      json(res, 404, { code: "not_found", message: "Not Found" });
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      json(res, 405, { code: "method_not_allowed", message: "Method Not Allowed" }, { Allow: "GET, HEAD" });
      return;
    }
    if (path === "/healthz") {
      json(res, 200, { status: "ok", build: options.build, role: "worker" });
      return;
    }
    options.ready().then(
      (ok) =>
        json(res, ok ? 200 : 503, { status: ok ? "ok" : "unavailable", database: ok ? "ok" : "unreachable", role: "worker" }),
      () => json(res, 503, { status: "unavailable", database: "unreachable", role: "worker" }),
    );
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  return server;
}
