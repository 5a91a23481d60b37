import { expect, it } from "vitest";
import { authConfigFromEnv } from "#app/services/auth/config.server.ts";
import { parseEnv } from "#app/utils/env.server.ts";

// Issue 25 probe: "MURMUR_DEV_MAILBOX=1 is honoured in production" — the mailbox shows every
// sign-in link to anyone. A production process ignores it unless the test-only MURMUR_E2E=1 is set.
it("ignores MURMUR_DEV_MAILBOX=1 when NODE_ENV=production, unless MURMUR_E2E=1 is set too", () => {
  const env = (extra: Record<string, string>) => parseEnv({ LOG_LEVEL: "silent", MURMUR_DEV_MAILBOX: "1", ...extra });
  expect(env({ NODE_ENV: "production" }).MURMUR_DEV_MAILBOX).toBe(false);
  expect(env({}).MURMUR_DEV_MAILBOX).toBe(false);
  expect(env({ NODE_ENV: "production", MURMUR_E2E: "1" }).MURMUR_DEV_MAILBOX).toBe(true);
  expect(env({ NODE_ENV: "development" }).MURMUR_DEV_MAILBOX).toBe(true);
  expect(env({ NODE_ENV: "test" }).MURMUR_DEV_MAILBOX).toBe(true);
  expect(parseEnv({ NODE_ENV: "production", MURMUR_E2E: "1" }).MURMUR_DEV_MAILBOX).toBe(false);
  expect(() => parseEnv({ MURMUR_E2E: "yes" })).toThrow();
  // What the mailbox routes read.
  expect(authConfigFromEnv(env({ NODE_ENV: "production", SITE_URL: "https://x.test" })).mailboxEnabled).toBe(false);
});
