import type { Server } from "node:http";
import type { Logger } from "pino";

const SHUTDOWN_GRACE_MS = 10_000;

/** On SIGTERM/SIGINT: stop accepting, let in-flight requests finish (10 s at most), then close. */
export function installShutdown({ server, logger, close }: { server: Server; logger: Logger; close: () => Promise<void> }) {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    const force = setTimeout(() => {
      logger.warn("forcing shutdown after grace period");
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    server.close(async () => {
      try {
        await close();
      } catch (err) {
        logger.error({ err }, "error while closing");
      }
      clearTimeout(force);
      logger.info("stopped");
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}
