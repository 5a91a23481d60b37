// Issue 17: the deployment's secret key, one-time codes stored as an HMAC under it, TOTP secrets
// sealed with it (envelope encryption), and a key rotation that loses nothing.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleAuthRequest } from "#app/services/auth/api/router.server.ts";
import { startAuthRuntime } from "#app/services/auth/auth-runtime.server.ts";
import { codeHash } from "#app/services/auth/code-hash.server.ts";
import { openSecret, resealed, sealSecret } from "#app/services/secrets/envelope.server.ts";
import { loadSecretKeys, SecretKeyError } from "#app/services/secrets/secret-keys.server.ts";
import { parseEnv } from "#app/utils/env.server.ts";
import { createLogger } from "#app/utils/logger.server.ts";
import {
  createConfirmedUser,
  createTestAuth,
  lastEmailTo,
  signedInClient,
  TEST_SITE_URL,
  type TestAuth,
} from "#tests/setup/auth.ts";

const KEY_A = randomBytes(32).toString("base64");
const KEY_B = randomBytes(32).toString("hex");

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "murmur-secret-"));
}

describe("the secret key", () => {
  it("comes from MURMUR_SECRET_KEY (base64 or hex), and a short or patterned one is refused", () => {
    const base = { NODE_ENV: "production" as const, MURMUR_DATA_DIR: tempDir() };
    expect(loadSecretKeys({ ...base, MURMUR_SECRET_KEY: KEY_A }).current.material).toEqual(Buffer.from(KEY_A, "base64"));
    expect(loadSecretKeys({ ...base, MURMUR_SECRET_KEY: KEY_B }).current.material).toEqual(Buffer.from(KEY_B, "hex"));
    expect(() => loadSecretKeys({ ...base, MURMUR_SECRET_KEY: randomBytes(16).toString("base64") })).toThrow(/at least 32/);
    expect(() => loadSecretKeys({ ...base, MURMUR_SECRET_KEY: "a".repeat(64) })).toThrow(/too weak/);
    expect(() => loadSecretKeys({ ...base, MURMUR_SECRET_KEY: KEY_A, MURMUR_SECRET_KEY_PREVIOUS: "short" })).toThrow(
      SecretKeyError,
    );
  });

  it("without one, is generated once under MURMUR_DATA_DIR with mode 0600 and read back on the next start", () => {
    const dir = tempDir();
    const first = loadSecretKeys({ NODE_ENV: "production", MURMUR_DATA_DIR: dir });
    const file = path.join(dir, "secret.key");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(first.source).toBe("file");
    expect(loadSecretKeys({ NODE_ENV: "production", MURMUR_DATA_DIR: dir }).current).toEqual(first.current);
    // Readable by others: refused in production rather than used.
    fs.chmodSync(file, 0o644);
    expect(() => loadSecretKeys({ NODE_ENV: "production", MURMUR_DATA_DIR: dir })).toThrow(/chmod 600/);
  });

  it("is required in production on a server PostgreSQL, where instances must share it", () => {
    expect(() =>
      loadSecretKeys({ NODE_ENV: "production", MURMUR_DATA_DIR: tempDir(), DATABASE_URL: "postgres://db/murmur" }),
    ).toThrow(/MURMUR_SECRET_KEY is required/);
    expect(
      loadSecretKeys({
        NODE_ENV: "production",
        MURMUR_DATA_DIR: tempDir(),
        DATABASE_URL: "postgres://db/murmur",
        MURMUR_SECRET_KEY: KEY_A,
      }).source,
    ).toBe("env");
  });
});

describe("envelope encryption", () => {
  const keysA = loadSecretKeys({ NODE_ENV: "production", MURMUR_DATA_DIR: "unused", MURMUR_SECRET_KEY: KEY_A });
  const keysB = loadSecretKeys({ NODE_ENV: "production", MURMUR_DATA_DIR: "unused", MURMUR_SECRET_KEY: KEY_B });
  const rotating = loadSecretKeys({
    NODE_ENV: "production",
    MURMUR_DATA_DIR: "unused",
    MURMUR_SECRET_KEY: KEY_B,
    MURMUR_SECRET_KEY_PREVIOUS: KEY_A,
  });

  it("seals with a fresh data key each time, opens only with the key, and detects tampering", () => {
    const one = sealSecret(keysA, "JBSWY3DPEHPK3PXP");
    const two = sealSecret(keysA, "JBSWY3DPEHPK3PXP");
    expect(one).not.toBe(two);
    expect(one).not.toContain("JBSWY3DPEHPK3PXP");
    expect(one.startsWith(`enc:v1:${keysA.current.id}:`)).toBe(true);
    expect(openSecret(keysA, one)).toBe("JBSWY3DPEHPK3PXP");
    expect(() => openSecret(keysB, one)).toThrow(/not configured/);
    const parts = one.split(":");
    const ciphertext = Buffer.from(parts[5] ?? "", "base64url");
    ciphertext[0] = (ciphertext[0] ?? 0) ^ 1;
    parts[5] = ciphertext.toString("base64url");
    expect(() => openSecret(keysA, parts.join(":"))).toThrow();
  });

  it("rotation re-wraps the data key under the new key; the old key is then no longer needed", () => {
    const old = sealSecret(keysA, "secret-seed");
    const moved = resealed(rotating, old);
    expect(moved?.startsWith(`enc:v1:${keysB.current.id}:`)).toBe(true);
    // Same ciphertext, new wrapping: only the key-encryption layer changed.
    expect(moved?.split(":").slice(4)).toEqual(old.split(":").slice(4));
    expect(openSecret(keysB, moved ?? "")).toBe("secret-seed");
    expect(resealed(keysB, moved ?? "")).toBeNull();
    // A value stored before encryption is read as is and sealed on the next pass.
    expect(openSecret(keysB, "PLAINSEED")).toBe("PLAINSEED");
    expect(openSecret(keysB, resealed(keysB, "PLAINSEED") ?? "")).toBe("PLAINSEED");
  });
});

describe("codes and TOTP secrets in the database", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await createTestAuth({ MURMUR_SECRET_KEY: KEY_A });
  });
  afterAll(() => t.close());

  it("an emailed code is stored as its HMAC under the secret key, not a plain hash, and still signs in", async () => {
    await t.client().auth.signInWithOtp({ email: "hmac@example.org" });
    const { code } = await lastEmailTo(t, "hmac@example.org");
    const row = (
      await sql<{ otp_hash: string }>`select otp_hash from auth.one_time_tokens where relates_to = 'hmac@example.org'`.execute(
        t.db.kysely,
      )
    ).rows[0];
    expect(row?.otp_hash).not.toBe(
      createHash("sha256")
        .update(code ?? "")
        .digest("hex"),
    );
    expect(row?.otp_hash).toBe(codeHash(t.auth.secrets.current, code ?? ""));
    const { error } = await t.client().auth.verifyOtp({ email: "hmac@example.org", token: code ?? "", type: "email" });
    expect(error).toBeNull();
  });

  it("a TOTP secret is sealed at rest; after a key rotation and restart it is re-wrapped and still verifies", async () => {
    const user = await createConfirmedUser(t, "totp-rotate@example.org", "Correct-Horse-9");
    const client = await signedInClient(t, user, "Correct-Horse-9");
    const enrolled = await client.auth.mfa.enroll({ factorType: "totp" });
    if (enrolled.error) throw enrolled.error;
    const seed = enrolled.data.totp.secret;
    const stored = async () =>
      (await sql<{ secret: string }>`select secret from auth.mfa_factors where id = ${enrolled.data.id}`.execute(t.db.kysely))
        .rows[0]?.secret ?? "";
    const before = await stored();
    expect(before.startsWith(`enc:v1:${t.auth.secrets.current.id}:`)).toBe(true);
    expect(before).not.toContain(seed);

    // Restart with a new key, the old one kept as previous: the row moves to the new key.
    const env = parseEnv({
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      SITE_URL: TEST_SITE_URL,
      MURMUR_SECRET_KEY: KEY_B,
      MURMUR_SECRET_KEY_PREVIOUS: KEY_A,
    });
    const rotated = await startAuthRuntime(env, t.db, createLogger("silent"));
    const after = await stored();
    expect(after.startsWith(`enc:v1:${rotated.secrets.current.id}:`)).toBe(true);
    expect(rotated.secrets.current.id).not.toBe(t.auth.secrets.current.id);

    // Verified through the restarted runtime, which no longer needs the previous key for it.
    const token = (await client.auth.getSession()).data.session?.access_token ?? "";
    const call = async (p: string, body: unknown) =>
      handleAuthRequest(
        new Request(`${TEST_SITE_URL}/auth/v1${p}`, {
          method: "POST",
          headers: { "content-type": "application/json", apikey: rotated.keys.anonKey, authorization: `Bearer ${token}` },
          body: JSON.stringify(body),
        }),
        { ...rotated, secrets: { ...rotated.secrets, previous: [] } },
        { ip: "127.0.0.1", userAgent: "vitest" },
      );
    const challenge = (await (await call(`/factors/${enrolled.data.id}/challenge`, {})).json()) as { id: string };
    const code = new TOTP({ secret: Secret.fromBase32(seed), algorithm: "SHA1", digits: 6, period: 30 }).generate();
    const verified = await call(`/factors/${enrolled.data.id}/verify`, { challenge_id: challenge.id, code });
    expect(verified.status).toBe(200);
    await rotated.close?.();
  });
});
