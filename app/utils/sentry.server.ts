import type * as SentryModule from "@sentry/react-router";

// SPEC §9: traces 10 %. Sentry stays unloaded unless SENTRY_DSN is set.
export const SERVER_TRACES_SAMPLE_RATE = 0.1;

let sentry: typeof SentryModule | null = null;
let log: (error: unknown, context: Record<string, unknown>) => void = (error, context) =>
  console.error({ err: error, ...context }, "unhandled server error");

export async function initServerSentry(options: {
  dsn?: string;
  environment?: string;
  release: string;
  logger?: (error: unknown, context: Record<string, unknown>) => void;
}): Promise<void> {
  if (options.logger) log = options.logger;
  if (!options.dsn) return;
  sentry = await import("@sentry/react-router");
  sentry.init({
    dsn: options.dsn,
    environment: options.environment,
    release: options.release,
    tracesSampleRate: SERVER_TRACES_SAMPLE_RATE,
    sendDefaultPii: false,
  });
}

export function reportServerError(error: unknown, context: Record<string, unknown> = {}): void {
  log(error, context);
  sentry?.captureException(error, { extra: context });
}
