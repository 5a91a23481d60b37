// The deployment's secret key (issue 17): the one secret kept outside the database, from which
// the keys that protect one-time codes (HMAC) and TOTP secrets (envelope encryption) are derived.
// A database dump alone then yields neither a usable code nor an authenticator secret.
//
// Where it comes from, in order:
//   1. MURMUR_SECRET_KEY (base64, base64url or hex; at least 32 random bytes);
//   2. tests without one: a random key for this process;
//   3. the key file MURMUR_DATA_DIR/secret.key, created on first start with 0600 permissions.
// With a server PostgreSQL in production (DATABASE_URL) several instances share the database, so
// they must share the key: a missing MURMUR_SECRET_KEY there stops the start instead of letting
// each instance invent its own. MURMUR_SECRET_KEY_PREVIOUS (comma-separated) keeps old keys
// readable during a rotation (docs/security.md "Rotating the secret key").
import { createHash, hkdfSync, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export interface SecretKey {
  /** Short fingerprint stored beside what the key protects, to pick the key that opens it. */
  id: string;
  material: Buffer;
}

export interface SecretKeys {
  current: SecretKey;
  /** Older keys, still accepted while data moves to the current one. */
  previous: SecretKey[];
  /** Where the current key came from, for the start-up log (never the key itself). */
  source: "env" | "file" | "ephemeral";
}

export class SecretKeyError extends Error {}

const MIN_BYTES = 32;
const KEY_FILE = "secret.key";
let ephemeral: Buffer | null = null;

export interface SecretKeyEnv {
  NODE_ENV: "development" | "production" | "test";
  MURMUR_DATA_DIR: string;
  DATABASE_URL?: string | undefined;
  MURMUR_SECRET_KEY?: string | undefined;
  MURMUR_SECRET_KEY_PREVIOUS?: string | undefined;
}

export function loadSecretKeys(env: SecretKeyEnv): SecretKeys {
  const previous = (env.MURMUR_SECRET_KEY_PREVIOUS ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => keyOf(decodeKey(s, "MURMUR_SECRET_KEY_PREVIOUS")));
  if (env.MURMUR_SECRET_KEY) {
    return { current: keyOf(decodeKey(env.MURMUR_SECRET_KEY, "MURMUR_SECRET_KEY")), previous, source: "env" };
  }
  if (env.NODE_ENV === "test") {
    ephemeral ??= randomBytes(MIN_BYTES);
    return { current: keyOf(ephemeral), previous, source: "ephemeral" };
  }
  if (env.NODE_ENV === "production" && env.DATABASE_URL) {
    throw new SecretKeyError(
      "MURMUR_SECRET_KEY is required in production with DATABASE_URL: every instance on the database must use the same key (generate one with `openssl rand -base64 32`).",
    );
  }
  return { current: keyOf(readOrCreateKeyFile(env.MURMUR_DATA_DIR, env.NODE_ENV)), previous, source: "file" };
}

/** A key given as text: base64 / base64url / hex of at least 32 bytes that are not a pattern. */
export function decodeKey(text: string, name: string): Buffer {
  const t = text.trim();
  const bytes = /^[0-9a-f]+$/i.test(t) && t.length % 2 === 0 ? Buffer.from(t, "hex") : Buffer.from(t, "base64");
  if (bytes.length < MIN_BYTES) {
    throw new SecretKeyError(`${name} must be at least ${MIN_BYTES} random bytes, base64 or hex encoded (got ${bytes.length}).`);
  }
  // A typed or repeated value ("aaaa…", "0000…") is not a key: random bytes use most values.
  if (new Set(bytes).size < 16) throw new SecretKeyError(`${name} is too weak: use random bytes (openssl rand -base64 32).`);
  return bytes;
}

function readOrCreateKeyFile(dataDir: string, nodeEnv: SecretKeyEnv["NODE_ENV"]): Buffer {
  const file = path.join(dataDir, KEY_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    // "wx": two instances starting on one data directory agree on the first one's key.
    fs.writeFileSync(file, `${randomBytes(MIN_BYTES).toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const mode = fs.statSync(file).mode & 0o777;
  if (mode & 0o077 && nodeEnv === "production") {
    throw new SecretKeyError(`${file} is readable by other users (mode ${mode.toString(8)}): chmod 600 it.`);
  }
  return decodeKey(fs.readFileSync(file, "utf8"), file);
}

function keyOf(material: Buffer): SecretKey {
  return { id: createHash("sha256").update(material).digest("hex").slice(0, 8), material };
}

/** A purpose-bound key derived from a secret key (HKDF-SHA256): one secret, independent keys. */
export function deriveKey(key: SecretKey, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", key.material, Buffer.alloc(0), `murmur/${purpose}`, 32));
}

/** Every key that may have protected stored data, current first. */
export function allKeys(keys: SecretKeys): SecretKey[] {
  return [keys.current, ...keys.previous];
}
