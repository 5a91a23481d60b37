import { z } from "zod";
import { CodingEnvShape } from "#app/services/coding/engines/env.ts";
import { checkNotesEnv, NotesEnvShape } from "#app/services/notes/engines/env.ts";
import { checkEmbeddingsEnv, EmbeddingsEnvShape } from "#app/services/rag/embeddings/env.ts";
import { checkSpeechEnv, SpeechEnvShape } from "#app/services/speech/env-schema.ts";
import { checkStorageEnv, StorageEnvShape } from "#app/services/storage/config.server.ts";

export const MURMUR_ROLES = ["all", "web", "worker"] as const;
export type MurmurRole = (typeof MURMUR_ROLES)[number];

/**
 * The embedded PGlite is a folder only one process may open: splitting web and jobs over two
 * processes needs a server PostgreSQL they both reach.
 */
function checkRoleEnv(env: { MURMUR_ROLE: MurmurRole; DATABASE_URL?: string }, ctx: z.RefinementCtx): void {
  if (env.MURMUR_ROLE !== "all" && !env.DATABASE_URL) {
    ctx.addIssue({
      code: "custom",
      path: ["MURMUR_ROLE"],
      message: `MURMUR_ROLE=${env.MURMUR_ROLE} needs DATABASE_URL: the embedded database can only be opened by one process, so web and worker processes must share a server PostgreSQL (or use MURMUR_ROLE=all)`,
    });
  }
}

const optionalUrl = z.preprocess((v) => (v === "" ? undefined : v), z.url().optional());
const optionalString = z.preprocess((v) => (v === "" ? undefined : v), z.string().optional());

/** Every variable Murmur reads; `.env.example` documents the same list. */
export const EnvSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default("0.0.0.0"),
    MURMUR_DATA_DIR: z.string().default("./data"),
    DATABASE_URL: optionalUrl,
    /** The deployment's secret key (app/services/secrets/secret-keys.server.ts); else MURMUR_DATA_DIR/secret.key. */
    MURMUR_SECRET_KEY: optionalString,
    /** Older secret keys, comma-separated, still accepted during a rotation (docs/security.md). */
    MURMUR_SECRET_KEY_PREVIOUS: optionalString,
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    TRUST_PROXY: z
      .enum(["true", "false"])
      .default("false")
      .transform((v) => v === "true"),
    SENTRY_DSN: optionalUrl,
    SENTRY_ENVIRONMENT: optionalString,
    ORG_BOOTSTRAP_TIMEOUT_MS: z.coerce.number().int().min(500).max(60_000).default(5000),
    /** Public address of this deployment (links in emails, redirect checks). Defaults to http://localhost:PORT. */
    SITE_URL: optionalUrl,
    /** Hosted Supabase project: when set, auth goes there instead of the embedded /auth/v1. */
    SUPABASE_URL: optionalUrl,
    SUPABASE_ANON_KEY: optionalString,
    SUPABASE_SERVICE_ROLE_KEY: optionalString,
    /** Extra allowed redirect URLs for auth emails, comma-separated (GoTrue's URI_ALLOW_LIST); `*` and `**` globs. */
    AUTH_ADDITIONAL_REDIRECT_URLS: z.string().default(""),
    AUTH_EMAIL_AUTOCONFIRM: z
      .enum(["true", "false"])
      .default("false")
      .transform((v) => v === "true"),
    AUTH_JWT_EXPIRY: z.coerce.number().int().min(30).max(604_800).default(3600),
    /**
     * Seconds during which a just-rotated refresh token may be presented again (two tabs, or the
     * server and the browser, refreshing at once) and answers with the session's current tokens
     * (GoTrue's GOTRUE_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL); 0 turns the grace off.
     */
    AUTH_REFRESH_TOKEN_REUSE_INTERVAL: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z.coerce.number().int().min(0).max(300).default(10),
    ),
    /** Emails the auth API sends per IP per hour (GoTrue's GOTRUE_RATE_LIMIT_EMAIL_SENT). */
    AUTH_RATE_LIMIT_EMAIL_SENT: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z.coerce.number().int().min(1).max(1_000_000).default(30),
    ),
    /** Accounts created (sign-up, /otp) per IP per 5 minutes (GoTrue's GOTRUE_RATE_LIMIT_OTP). */
    AUTH_RATE_LIMIT_OTP: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z.coerce.number().int().min(1).max(1_000_000).default(30),
    ),
    /** /token grants per IP per 5 minutes (GoTrue's GOTRUE_RATE_LIMIT_TOKEN_REFRESH). */
    AUTH_RATE_LIMIT_TOKEN_REFRESH: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z.coerce.number().int().min(1).max(1_000_000).default(150),
    ),
    /** GET/POST /verify per IP per 5 minutes (GoTrue's GOTRUE_RATE_LIMIT_VERIFY). */
    AUTH_RATE_LIMIT_VERIFY: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z.coerce.number().int().min(1).max(1_000_000).default(30),
    ),
    /** Wrong passwords per address (and per known device) per 5 minutes before sign-in is held back. */
    AUTH_RATE_LIMIT_PASSWORD_FAILURES: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z.coerce.number().int().min(1).max(1_000_000).default(10),
    ),
    AUTH_DISABLE_SIGNUP: z
      .enum(["true", "false"])
      .default("false")
      .transform((v) => v === "true"),
    /** smtp://user:pass@host:port or smtps://…; without it emails stay in the outbox. */
    SMTP_URL: optionalUrl,
    SMTP_FROM: z.string().default("Murmur AI Scribe <no-reply@localhost>"),
    /**
     * Shows /dev/mailbox with every outgoing email and SMS. Ignored when NODE_ENV=production unless
     * MURMUR_E2E=1 too (see parseEnv): the mailbox shows every sign-in link to whoever asks.
     */
    MURMUR_DEV_MAILBOX: z
      .enum(["0", "1"])
      .default("0")
      .transform((v) => v === "1"),
    /**
     * Test-only: the Playwright suite runs a production build (NODE_ENV=production) and reads sign-up
     * links from the dev mailbox. Only MURMUR_E2E=1 together with MURMUR_DEV_MAILBOX=1 allows that.
     */
    MURMUR_E2E: z
      .enum(["0", "1"])
      .default("0")
      .transform((v) => v === "1"),
    /** Stripe billing: set to sell plans through Checkout; without it the manual provider applies. */
    STRIPE_SECRET_KEY: optionalString,
    /** Verifies POST /api/billing/stripe/webhook (whsec_…); without it the webhook is 404. */
    STRIPE_WEBHOOK_SECRET: optionalString,
    /** Stripe's API address (default https://api.stripe.com); tests point it at a local fake. */
    STRIPE_API_BASE: optionalUrl,
    /** Stripe Price ids; a plan without one is "Contact us" on the billing page. */
    STRIPE_PRICE_SOLO: optionalString,
    STRIPE_PRICE_PRACTICE: optionalString,
    STRIPE_PRICE_CLINIC: optionalString,
    /** S3-compatible audio storage; without S3_BUCKET audio stays under MURMUR_DATA_DIR/blobs (ADR 8). */
    ...StorageEnvShape,
    /** Speech engines (docs/speech.md "Configuration"). */
    ...SpeechEnvShape,
    /** Note engines (docs/notes.md "Note engines"). */
    ...NotesEnvShape,
    /** Ask Murmur's answerer (docs/api.md "Ask Murmur"): extractive (default) or openai-compatible (LLM_OPENAI_*). */
    RAG_ENGINE: z.enum(["extractive", "openai-compatible"]).default("extractive"),
    /** Optional dense retrieval for Ask Murmur (docs/rag.md "Dense retrieval", ADR 0020). */
    ...EmbeddingsEnvShape,
    /** Coding engine (docs/coding.md "Engines"; issue 13). */
    ...CodingEnvShape,
    /** Largest request body accepted outside upload routes, in bytes. */
    MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
    /**
     * On SIGTERM/SIGINT the server exits within this long, whatever is still running (server/shutdown.ts):
     * requests drain and jobs finish in the first part, the database closes in the rest.
     */
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(10_000),
    /**
     * How long a cookie-less visitor may be served a copy of a public page (sign-in, sign-up,
     * marketing) rendered for someone else; 0 renders every time (server/page-cache.ts, ADR 0033).
     */
    PAGE_CACHE_TTL_MS: z.coerce.number().int().min(0).max(300_000).default(10_000),
    /**
     * What this process does (ADR 0038): `all` serves HTTP and runs the jobs (one process, the
     * default); `web` serves HTTP only and queues jobs for others; `worker` runs jobs only and
     * answers /healthz and /readyz. `web` and `worker` share one server PostgreSQL (DATABASE_URL).
     */
    MURMUR_ROLE: z.preprocess((v) => (v === "" ? undefined : v), z.enum(MURMUR_ROLES).default("all")),
    /**
     * How often pg-boss looks for jobs whose process died (heartbeat lapsed, 30 s) and hands them
     * back to their queue; a dead worker's job is retried within heartbeat + this + its retry delay.
     */
    JOBS_SUPERVISE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  })
  .superRefine((env, ctx) => {
    checkStorageEnv(env, ctx);
    checkSpeechEnv(env, ctx);
    checkNotesEnv(env, ctx);
    checkEmbeddingsEnv(env, ctx);
    checkRoleEnv(env, ctx);
  });

export type Env = z.infer<typeof EnvSchema>;

export class EnvError extends Error {}

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new EnvError(`Invalid environment:\n${lines.join("\n")}`);
  }
  const env = result.data;
  // Issue 25: one forgotten MURMUR_DEV_MAILBOX=1 in production published every sign-in link.
  if (env.NODE_ENV === "production" && env.MURMUR_DEV_MAILBOX && !env.MURMUR_E2E) return { ...env, MURMUR_DEV_MAILBOX: false };
  return env;
}
