import type { Database } from "#app/db/database.server.ts";
import { loadSecretKeys, type SecretKeys } from "#app/services/secrets/secret-keys.server.ts";
import type { Env } from "#app/utils/env.server.ts";
import type { Logger } from "#app/utils/logger.server.ts";
import { type AuthConfig, authConfigFromEnv } from "./config.server.ts";
import { startEmailDelivery } from "./delivery.server.ts";
import { type AuthKeys, ensureAuthKeys } from "./keys.server.ts";
import { resealTotpSecrets } from "./mfa/secret-storage.server.ts";

/** Everything the embedded auth API needs, created once at start-up. */
export interface AuthRuntime {
  config: AuthConfig;
  keys: AuthKeys;
  /** The deployment's secret key, kept outside the database: one-time code HMACs, sealed TOTP secrets. */
  secrets: SecretKeys;
  db: Database;
  logger: Logger;
  /** Called after an email is queued, so the delivery worker sends it without waiting for its next tick. */
  onOutbox?: () => void;
  /** Stops background work (the SMTP delivery worker); the database stays open. */
  close?: () => Promise<void>;
}

export async function startAuthRuntime(env: Env, db: Database, logger: Logger): Promise<AuthRuntime> {
  const config = authConfigFromEnv(env);
  const secrets = loadSecretKeys(env);
  const { keys, created } = await ensureAuthKeys(db, config.authUrl);
  if (created) {
    // Shown once, when generated: the operator copies them where needed (docs/auth.md).
    logger.warn(
      { anonKey: keys.anonKey, serviceRoleKey: keys.serviceRoleKey },
      "auth keys generated: the anon key is public; keep the service-role key secret (it is not shown again)",
    );
  }
  // TOTP secrets stored before encryption, or under a key being rotated out, move to the current key.
  const resealed = await resealTotpSecrets(db, secrets);
  if (resealed > 0) logger.info({ resealed, keyId: secrets.current.id }, "TOTP secrets sealed under the current secret key");
  logger.info({ keyId: secrets.current.id, source: secrets.source }, "secret key loaded");
  const runtime: AuthRuntime = { config, keys, secrets, db, logger };
  const delivery = startEmailDelivery(runtime);
  if (delivery) runtime.close = () => delivery.stop();
  return runtime;
}
