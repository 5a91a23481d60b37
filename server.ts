// Murmur's HTTP server: security headers, request ids, logs, static files, the React Router
// handler, and graceful shutdown. The application itself (runtime, database) comes from the
// build so that one module graph serves every request.
import fs from "node:fs";
import { type Server, STATUS_CODES } from "node:http";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";
import type { ServerBuild } from "react-router";
import { createLogger, guardStdio, stdoutLogSink } from "./app/utils/logger.server.ts";
import { createHttpLogger } from "./server/http-logger.ts";
import { pageCache } from "./server/page-cache.ts";
import { guardRequest } from "./server/request-guard.ts";
import { requestIdentity } from "./server/request-identity.ts";
import { sameOriginGuard } from "./server/same-origin-guard.ts";
import { securityHeaders } from "./server/security-headers.ts";
import { installShutdown } from "./server/shutdown.ts";
import { createWorkerHttpServer } from "./server/worker-http.ts";

type AppEntry = typeof import("./app/entry.server.tsx");

// `npm run dev` also passes --conditions=development so server.ts and Vite load the same React Router copy.
const MODE = process.env.NODE_ENV === "development" ? "development" : "production";
const BUILD_PATH = path.resolve("build/server/index.js");

// Before anything prints: a reader that went away (EPIPE) must not crash or stall the server.
guardStdio();

// A signal during start-up (migrations may be writing to the embedded database) is held until the
// shutdown below can close everything properly; a second one ends the process at once.
let earlySignal: NodeJS.Signals | null = null;
const onEarlySignal = (signal: NodeJS.Signals) => {
  if (earlySignal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }
  earlySignal = signal;
};
process.on("SIGTERM", onEarlySignal);
process.on("SIGINT", onEarlySignal);

async function main() {
  let loadBuild: () => Promise<ServerBuild>;
  // Production hands React Router the build itself: given a function, it re-derives the route
  // table (flattening and ranking every route of the three languages) on every request, which
  // was a fifth of /login's CPU time under load (issue 17 profile, bench/web).
  let productionBuild: ServerBuild | null = null;
  let viteMiddleware: express.RequestHandler | null = null;
  if (MODE === "development") {
    const vite = await import("vite");
    const devServer = await vite.createServer({ server: { middlewareMode: true } });
    viteMiddleware = devServer.middlewares;
    loadBuild = () => devServer.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
  } else {
    if (!fs.existsSync(BUILD_PATH)) {
      console.error("No build found: run `npm run build` (npm start does this for you).");
      process.exit(1);
    }
    const build = (await import(BUILD_PATH)) as ServerBuild;
    loadBuild = async () => build;
    productionBuild = build;
  }

  const entry = (await loadBuild()).entry.module as unknown as AppEntry;
  const env = entry.parseEnv(process.env);
  // Logs go to stdout without ever blocking: lines a stalled reader cannot take are dropped and counted.
  const logSink = stdoutLogSink();
  const logger = createLogger(env.LOG_LEVEL, { destination: logSink });
  const runtime = await entry.startRuntime(env, { logger });
  // `npm run backup` asks this process for a consistent copy of its embedded database (ADR 0024).
  const backupControl =
    runtime.db.kind === "pglite"
      ? await entry.startBackupControl({ db: runtime.db, dataDir: env.MURMUR_DATA_DIR, logger })
      : null;
  await entry.initServerSentry({
    dsn: env.SENTRY_DSN,
    environment: env.SENTRY_ENVIRONMENT,
    release: process.env.MURMUR_BUILD_ID ?? "local",
    logger: (err, context) => logger.error({ err, ...context }, "unhandled server error"),
  });

  // ADR 0038: a worker process runs the jobs and answers the health probes, nothing else.
  if (env.MURMUR_ROLE === "worker") {
    const server = createWorkerHttpServer({ ready: () => entry.checkDatabase(runtime.db), build: entry.BUILD_ID });
    server.listen(env.PORT, env.HOST, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : env.PORT;
      logger.info({ port, role: env.MURMUR_ROLE, database: runtime.db.kind }, `Murmur worker health on http://localhost:${port}`);
    });
    finishStart(server);
    return;
  }

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env.TRUST_PROXY);
  app.use(requestIdentity());
  app.use(createHttpLogger(logger));
  app.use(guardRequest({ maxBodyBytes: env.MAX_BODY_BYTES }));
  app.use(sameOriginGuard({ siteUrl: env.SITE_URL }));
  app.use(securityHeaders({ development: MODE === "development", sentryDsn: env.SENTRY_DSN, supabaseUrl: env.SUPABASE_URL }));
  if (viteMiddleware) {
    app.use(compression());
    app.use(viteMiddleware);
  } else {
    // Hashed file names never change content: cache them for a year, compressed hard (browsers
    // fetch each once). Pages and API answers are compressed fast: they are rendered every time.
    app.use(
      "/assets",
      compression({ level: 9 }),
      express.static("build/client/assets", { immutable: true, maxAge: "1y", index: false, fallthrough: false }),
    );
    app.use(compression({ level: 1 }));
    // After compression (a copy is stored uncompressed, then compressed per response like any page)
    // and after the security headers (a copy gets this response's nonce).
    app.use(pageCache({ ttlMs: env.PAGE_CACHE_TTL_MS }));
    // redirect: false — a folder under public/ must never turn a page's URL into "/folder/".
    // Only a path whose last segment has a dot can be a file: pages skip the static lookup (a
    // filesystem stat per page request otherwise).
    const staticFiles = express.static("build/client", { maxAge: "1h", index: false, redirect: false });
    app.use((req, res, next) => (/\.[^/]*$/.test(req.path) ? staticFiles(req, res, next) : next()));
  }

  app.all(
    "/{*splat}",
    createRequestHandler({
      build: productionBuild ?? (() => loadBuild()),
      mode: MODE,
      getLoadContext: async (req, res) => {
        const current = (await loadBuild()).entry.module as unknown as AppEntry;
        return current.createLoadContext(runtime, {
          requestId: res.locals.requestId,
          nonce: res.locals.nonce,
          clientIp: req.ip ?? "unknown",
        });
      },
    }),
  );

  // Last resort: never a stack trace to the client.
  app.use((err: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) => {
    // A body cut off by its limit was answered 413 already: the reader's failure is expected.
    if (res.locals.bodyLimitExceeded) return res.end();
    const status = typeof (err as { status?: unknown }).status === "number" ? (err as { status: number }).status : 500;
    if (status >= 500) logger.error({ err, requestId: res.locals.requestId }, "request failed");
    if (res.headersSent) return res.end();
    res.status(status >= 400 && status < 600 ? status : 500);
    if (req.accepts(["json", "html"]) === "json") {
      res.json({
        code: status >= 500 ? "internal_error" : "bad_request",
        message: status >= 500 ? "Internal Server Error" : "Bad Request",
      });
    } else {
      res.type("text/plain").send(status >= 500 ? "Internal Server Error" : "Bad Request");
    }
  });

  const server = app.listen(env.PORT, env.HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : env.PORT;
    logger.info(
      { port, mode: MODE, role: env.MURMUR_ROLE, database: runtime.db.kind },
      `Murmur listening on http://localhost:${port}`,
    );
  });
  server.headersTimeout = 30_000;
  server.requestTimeout = 120_000;
  finishStart(server);

  /** Error handlers and the graceful shutdown, for either kind of server. */
  function finishStart(server: Server) {
    process.on("unhandledRejection", (reason) => logger.error({ err: reason }, "unhandled rejection"));
    process.on("uncaughtException", (err) => logger.fatal({ err }, "uncaught exception"));
    const { shutdown } = installShutdown({
      server,
      logger,
      timeoutMs: env.SHUTDOWN_TIMEOUT_MS,
      stopJobs: (options) => runtime.stopJobs?.(options) ?? Promise.resolve(),
      close: async ({ jobsStopped }) => {
        await backupControl?.close();
        await runtime.close({ waitForJobs: jobsStopped });
      },
      flushLogs: (ms) => logSink.flush(ms),
      droppedLogLines: () => logSink.dropped,
    });
    process.off("SIGTERM", onEarlySignal);
    process.off("SIGINT", onEarlySignal);
    if (earlySignal) shutdown(earlySignal);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
