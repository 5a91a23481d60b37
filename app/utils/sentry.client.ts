import {
  SENTRY_REPLAYS_ON_ERROR_SAMPLE_RATE,
  SENTRY_REPLAYS_SESSION_SAMPLE_RATE,
  SENTRY_TRACES_SAMPLE_RATE,
} from "./constants.ts";
import { errorStore } from "./error-store.ts";

/** Loads Sentry only when a DSN is configured, so the default bundle carries none of it. */
export async function initClientSentry(config: { dsn?: string | null; environment?: string | null; release: string }) {
  if (!config.dsn) return;
  const Sentry = await import("@sentry/react-router");
  Sentry.init({
    dsn: config.dsn,
    environment: config.environment ?? undefined,
    release: config.release,
    integrations: [Sentry.reactRouterTracingIntegration(), Sentry.replayIntegration()],
    tracesSampleRate: SENTRY_TRACES_SAMPLE_RATE,
    replaysSessionSampleRate: SENTRY_REPLAYS_SESSION_SAMPLE_RATE,
    replaysOnErrorSampleRate: SENTRY_REPLAYS_ON_ERROR_SAMPLE_RATE,
    sendDefaultPii: false,
  });
  errorStore.setReporter((entry, error) =>
    Sentry.captureException(error ?? new Error(entry.message), {
      level: entry.severity === "critical" ? "fatal" : "error",
      tags: { type: entry.type },
      extra: entry.context,
    }),
  );
}
